"""A tournament page's socket that stops reading (server/api/page_socket.py and the route
in server/api/tournaments.py), driven through the app's ASGI interface: a client that
stops reading is, to the app, a `send` that never returns (uvicorn's send waits while the
transport's buffer is full). It holds the newest state only, is dropped after
WS_SEND_TIMEOUT (its address's place comes back), and publishing to the others never
waits on it. The writer alone: tests/api/test_page_socket.py."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from datetime import timedelta

import pytest
import pytest_asyncio
from fastapi import FastAPI

from server.config import Settings
from tests.accounts.conftest import client, running_app, sign_up
from tests.asgi_socket import AsgiSocket


@pytest_asyncio.fixture
async def app(make_settings: Callable[..., Settings]) -> AsyncIterator[FastAPI]:
    async with running_app("sqlite", make_settings, WS_PER_ADDRESS=1,
                           WS_SEND_TIMEOUT=0.2, TOURNAMENT_RATE=1000) as built:
        yield built


@pytest.mark.asyncio
async def test_a_socket_that_stops_reading_is_dropped_and_others_hear_every_change(
        app: FastAPI) -> None:
    async with client(app, "10.7.0.1") as org:
        await sign_up(org, "Orgf")
        start = app.state.tournaments.wall() + timedelta(hours=1)
        tid = (await org.post("/api/tournaments", json={
            "name": "Stuck Cup", "starts_at": start.isoformat()})).json()["id"]
        path = f"/tournaments/{tid}/socket"
        stuck, other = AsgiSocket(app, path, "10.7.0.2"), AsgiSocket(app, path, "10.7.0.3")
        assert (await stuck.next())["type"] == (await other.next())["type"] == "tournament"
        stuck.stuck = True
        for n in range(20):
            step = "join" if n % 2 == 0 else "withdraw"
            assert (await org.post(f"/api/tournaments/{tid}/{step}", json={})).status_code == 200
            standings = (await other.next())["tournament"]["standings"]
            assert [s["name"] for s in standings] == (["Orgf"] if step == "join" else [])
        async with asyncio.timeout(10):  # its send did not return within WS_SEND_TIMEOUT
            await stuck.task
        again = AsgiSocket(app, path, "10.7.0.2")  # its address's one place is free again
        assert (await again.next())["tournament"]["standings"] == []
        await again.leave()
        await other.leave()


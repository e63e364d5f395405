"""A lobby socket that stops reading (server/api/quickplay.py, its writer
server/api/page_socket.py), driven in-process through the app's ASGI interface: it is
dropped after WS_SEND_TIMEOUT, its address's place comes back, and the other lobby sockets
hear every change meanwhile. How the writer orders answers and lists, and when it gives
up on a socket: tests/api/test_page_socket.py."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable

import pytest
import pytest_asyncio
from fastapi import FastAPI

from server.config import Settings
from tests.accounts.conftest import running_app
from tests.asgi_socket import AsgiSocket

PATH = "/lobby/socket"


@pytest_asyncio.fixture
async def app(make_settings: Callable[..., Settings]) -> AsyncIterator[FastAPI]:
    async with running_app("sqlite", make_settings, WS_PER_ADDRESS=1, WS_SEND_TIMEOUT=0.2,
                           SEEK_RATE=1000, QUICKPLAY_TICK=0.05) as built:
        yield built


async def answer(socket: AsgiSocket, kind: str) -> dict:
    while (frame := await socket.receive())["type"] != kind:
        assert frame["type"] == "lobby", frame
    return frame


async def listed(socket: AsgiSocket, seeks: int) -> None:
    """Until the socket is sent a list of `seeks` seeks."""
    while (frame := await socket.receive())["type"] != "lobby" or len(frame["seeks"]) != seeks:
        pass


@pytest.mark.asyncio
async def test_a_lobby_socket_that_stops_reading_is_dropped_and_others_hear_every_change(
        app: FastAPI) -> None:
    stuck, other = AsgiSocket(app, PATH, "10.8.0.2"), AsgiSocket(app, PATH, "10.8.0.3")
    player = AsgiSocket(app, PATH, "10.8.0.4")
    assert (await stuck.receive())["type"] == (await other.receive())["type"] == "lobby"
    stuck.stuck = True
    for _ in range(10):
        player.say(json.dumps({"type": "play", "name": "Ann", "size": 4}))
        await answer(player, "queued")
        await listed(other, 1)
        player.say(json.dumps({"type": "cancel"}))
        await answer(player, "cancelled")
        await listed(other, 0)
    async with asyncio.timeout(10):  # its send did not return within WS_SEND_TIMEOUT
        await stuck.task
    again = AsgiSocket(app, PATH, "10.8.0.2")  # its address's one place is free again
    assert (await again.receive())["type"] == "lobby"
    for socket in (again, other, player):
        await socket.leave()


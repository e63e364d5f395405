"""A deleted or disabled account's open seats lose their ✓ (issue 29): the player plays on
by the seat token as a guest, the table no longer vouches for the name, the seat is
journaled without its account; and a disabled account's session acts for it nowhere."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest
import pytest_asyncio
from fastapi import FastAPI
from sqlalchemy import text

from server import cli
from server.config import Settings

from .conftest import client, refused, running_app, sign_up

pytestmark = pytest.mark.asyncio
WATCH = 0.05  # SWEEP_INTERVAL: how often the server asks which seated accounts are gone


@pytest_asyncio.fixture(params=["sqlite", "postgresql"])
async def app(request: pytest.FixtureRequest,
              make_settings: Callable[..., Settings]) -> AsyncIterator[FastAPI]:
    async with running_app(request.param, make_settings, SWEEP_INTERVAL=WATCH) as built:
        yield built


async def _table(alice: httpx.AsyncClient, bob: httpx.AsyncClient) -> tuple[str, str]:
    """Alice (signed in) hosts and sits, Bob (a guest) sits; (code, Alice's seat token)."""
    r = await alice.post("/api/rooms", json={"players": 2})
    code = r.json()["code"]
    seat = (await alice.post(f"/api/rooms/{code}/join", json={"name": "x"})).json()
    assert (await bob.post(f"/api/rooms/{code}/join", json={"name": "Bob"})).status_code == 200
    return code, seat["seat_token"]


async def _seats(browser: httpx.AsyncClient, code: str) -> list[dict[str, Any]]:
    return (await browser.get(f"/api/rooms/{code}")).json()["seats"]


async def _stored(app: FastAPI) -> list[tuple[Any, ...]]:
    async with app.state.db_sessions() as session:
        return [tuple(r) for r in await session.execute(
            text("SELECT seat, name, account_id FROM room_seats ORDER BY seat"))]


async def _until(check: Callable[[], Any], seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if await check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the condition never held")


async def test_a_deleted_accounts_open_seat_is_no_longer_verified(app: FastAPI) -> None:
    async with client(app) as alice, client(app) as bob:
        me = await sign_up(alice, "Alice")
        code, token = await _table(alice, bob)
        assert (await _seats(bob, code))[0]["verified"] is True
        r = await alice.post("/api/me/delete", json={"name": "Alice"})
        assert r.status_code == 200, r.text
        seats = await _seats(bob, code)
        assert seats[0]["name"] == "Alice" and "verified" not in seats[0]
        assert await _stored(app) == [(0, "Alice", None), (1, "Bob", None)]
        assert me["id"] not in [s.account_id for s in app.state.rooms.get(code).seats]
        # the player still plays by the seat token: as host, she starts the game
        r = await alice.post(f"/api/rooms/{code}/start", json={"token": token})
        assert r.status_code == 200, r.text


async def test_a_disabled_accounts_seat_loses_its_mark_and_its_session_acts_nowhere(
    app: FastAPI,
) -> None:
    async with client(app) as alice, client(app) as bob:
        await sign_up(alice, "Alice")
        code, token = await _table(alice, bob)
        other = (await bob.post("/api/rooms", json={"players": 2})).json()["code"]
        url = app.state.settings.DATABASE_URL
        # the host disables her from the command line: another process, which the server
        # hears of only through the database
        assert await asyncio.to_thread(cli.main, ["users", "--database-url", url,
                                                  "disable", "Alice"]) == 0

        async def unverified() -> bool:  # shown, and stored (the journal's write follows)
            return "verified" not in (await _seats(bob, code))[0] and \
                await _stored(app) == [(0, "Alice", None), (1, "Bob", None)]
        await _until(unverified)
        # her cookie signs in no one: no account page, no new seat token, no seat under
        # the account's name at another table
        refused(await alice.get("/api/me"), 401, "not_signed_in")
        refused(await alice.post(f"/api/rooms/{code}/rejoin", json={}), 401, "not_signed_in")
        refused(await alice.post(f"/api/rooms/{other}/join", json={"name": "Alice"}), 409,
                "name_taken")
        assert (await alice.get("/api/me/session")).json()["account"] is None
        # enabled again, she signs in, but the open seat stays a guest's
        assert await asyncio.to_thread(cli.main, ["users", "--database-url", url,
                                                  "enable", "Alice"]) == 0
        r = await alice.post("/api/sign-in/password",
                             json={"name": "Alice", "password": "correct horse"})
        assert r.status_code == 200
        refused(await alice.post(f"/api/rooms/{code}/rejoin", json={}), 403, "forbidden")
        assert "verified" not in (await _seats(bob, code))[0]
        assert app.state.rooms.get(code).seat_of(token) == 0  # the seat token still opens it

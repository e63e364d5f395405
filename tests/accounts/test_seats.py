"""Seats know their account: a signed-in player sits under their account's name and is
shown verified, a guest cannot take an account's name, the account is journaled with the
seat (and back after a restart), goes with the player into the finished game, and the
player finds their open tables and a new seat token from any signed-in device."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi import FastAPI
from sqlalchemy import text

from server.config import Settings
from server.main import create_app
from server.rooms import RoomOptions

from .conftest import client, refused, sign_up

pytestmark = pytest.mark.asyncio


async def _room(browser) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    r = await browser.post("/api/rooms", json={"players": 2})
    assert r.status_code == 201, r.text
    return r.json()["code"], r.json()["host_token"]


async def _rows(app: FastAPI, sql: str) -> list[tuple]:
    async with app.state.db_sessions() as session:
        return [tuple(r) for r in await session.execute(text(sql))]


async def test_a_signed_in_player_sits_verified_under_their_account_name(app: FastAPI) -> None:
    async with client(app) as alice, client(app) as guest:
        me = await sign_up(alice, "Alice")
        code, _ = await _room(alice)
        r = await alice.post(f"/api/rooms/{code}/join", json={"name": "Queen of Hearts"})
        assert r.status_code == 200
        r = await guest.post(f"/api/rooms/{code}/join", json={"name": "Bob"})
        assert r.status_code == 200
        seats = (await guest.get(f"/api/rooms/{code}")).json()["seats"]
        assert seats[0]["name"] == "Alice" and seats[0]["verified"] is True
        assert seats[1]["name"] == "Bob" and "verified" not in seats[1]
        assert await _rows(app, "SELECT seat, name, account_id FROM room_seats ORDER BY seat") \
            == [(0, "Alice", me["id"]), (1, "Bob", None)]


async def test_a_guest_cannot_sit_under_an_accounts_name(sqlite_app: FastAPI) -> None:
    async with client(sqlite_app) as alice, client(sqlite_app) as guest:
        await sign_up(alice, "Alice")
        code, _ = await _room(guest)
        for name in ("Alice", "alice", "\u0410lice"):
            r = await guest.post(f"/api/rooms/{code}/join", json={"name": name})
            refused(r, 409, "name_taken")
        r = await guest.post(f"/api/rooms/{code}/join", json={"name": "Alicia"})
        assert r.status_code == 200


async def test_one_seat_per_account_and_table(sqlite_app: FastAPI) -> None:
    async with client(sqlite_app) as alice:
        await sign_up(alice, "Alice")
        code, _ = await _room(alice)
        assert (await alice.post(f"/api/rooms/{code}/join", json={"name": "x"})).status_code \
            == 200
        refused(await alice.post(f"/api/rooms/{code}/join", json={"name": "x"}), 409,
                "room_full")


async def test_my_tables_and_a_new_seat_token_from_another_device(app: FastAPI) -> None:
    async with client(app) as phone, client(app) as laptop, client(app) as guest:
        await sign_up(phone, "Alice", "correct horse")
        code, _ = await _room(phone)
        old = (await phone.post(f"/api/rooms/{code}/join", json={"name": "x"})).json()
        await guest.post(f"/api/rooms/{code}/join", json={"name": "Bob"})
        r = await laptop.post("/api/sign-in/password",
                              json={"name": "Alice", "password": "correct horse"})
        assert r.status_code == 200
        tables = (await laptop.get("/api/me/tables")).json()["tables"]
        assert tables == [{"code": code, "status": "waiting", "seat": 0, "name": "Alice",
                           "turn": None, "your_turn": False, "left_ms": None,
                           "names": ["Alice", "Bob"], "url": f"/r/{code}",
                           "rejoin": f"/api/rooms/{code}/rejoin"}]
        refused(await guest.post(f"/api/rooms/{code}/rejoin", json={}), 401, "not_signed_in")
        r = await laptop.post(tables[0]["rejoin"], json={})
        assert r.status_code == 200 and r.json()["seat"] == 0
        new = r.json()["seat_token"]
        room = app.state.rooms.get(code)
        assert room.seat_of(new) == 0 and room.seat_of(old["seat_token"]) is None
        (token_hash,) = (await _rows(app, "SELECT token_hash FROM room_seats WHERE seat = 0"))[0]
        assert token_hash == room.seats[0].token_hash  # durable before it was handed out
        assert new not in str(await _rows(app, "SELECT * FROM room_seats"))


async def test_the_account_goes_with_the_player_into_the_finished_game(app: FastAPI) -> None:
    async with client(app) as alice, client(app) as guest:
        me = await sign_up(alice, "Alice")
        code, host = await _room(alice)
        await alice.post(f"/api/rooms/{code}/join", json={"name": "x"})
        await guest.post(f"/api/rooms/{code}/join", json={"name": "Bob"})
        assert (await alice.post(f"/api/rooms/{code}/start", json={"token": host})).status_code \
            == 200
        tables = (await alice.get("/api/me/tables")).json()["tables"]
        assert tables[0]["status"] == "playing" and tables[0]["turn"] in (0, 1)
        room = app.state.rooms.get(code)
        async with room.lock:  # the room expires mid-game: kept as an abandoned game
            await room.tell_journal("abandoned")
        assert await _rows(app, "SELECT seat, name, account_id FROM game_players ORDER BY seat") \
            == [(0, "Alice", me["id"]), (1, "Bob", None)]
        assert (await alice.get("/api/me/tables")).json()["tables"] == []


async def test_the_verified_seat_is_back_after_a_restart(
    make_settings: Callable[..., Settings],
) -> None:
    settings = make_settings(BOT_WORKERS=0)
    first = create_app(settings)
    async with first.router.lifespan_context(first), client(first) as alice:
        me = await sign_up(alice, "Alice")
        code, _ = await _room(alice)
        await alice.post(f"/api/rooms/{code}/join", json={"name": "x"})
        cookies = dict(alice.cookies)
    second = create_app(settings)
    async with second.router.lifespan_context(second), client(second,
                                                              cookies=cookies) as alice:
        seats = (await alice.get(f"/api/rooms/{code}")).json()["seats"]
        assert seats[0] == {"seat": 0, "name": "Alice", "connected": False, "bot": None,
                            "verified": True}
        assert second.state.rooms.get(code).seats[0].account_id == me["id"]
        tables = (await alice.get("/api/me/tables")).json()["tables"]
        assert [t["code"] for t in tables] == [code]


async def test_a_rematch_keeps_each_players_account(sqlite_app: FastAPI) -> None:
    manager = sqlite_app.state.rooms
    old = manager.build("OLDROOM1", RoomOptions(2), 7, "h")
    old.sit(0, "Alice", "t0", account_id=7)
    old.sit(1, "Bob", "t1")
    new = manager.build("NEWROOM1", RoomOptions(2), 8, "h2")
    new.seat_players_of(old)
    assert [(s.name, s.account_id) for s in new.seats] == [("Alice", 7), ("Bob", None)]
    assert [s.info().get("verified") for s in new.seats] == [True, None]
    new.vacate(0)
    assert new.seats[0].account_id is None


async def test_a_database_away_neither_breaks_nor_hangs_a_join(sqlite_app: FastAPI) -> None:
    """With another process holding SQLite's write lock, a guest and a signed-in player still
    sit down (reads go on; the journal goes to its fallback file). With the accounts'
    database unreachable (nothing listens where it was), both are told to try again (503
    unavailable): the guest's name cannot be checked against the accounts' names, and a
    guest is never seated under one (issue 41.12). Never a 500, never a hang."""
    import sqlite3

    from server.db.session import make_engine, session_factory, sqlite_path
    from tests.serving import free_port

    async with client(sqlite_app) as alice, client(sqlite_app) as guest:
        await sign_up(alice, "Alice")
        code, _ = await _room(guest)
        lock = sqlite3.connect(sqlite_path(sqlite_app.state.settings.DATABASE_URL),
                               isolation_level=None)
        lock.execute("BEGIN EXCLUSIVE")
        try:
            for who, name in ((guest, "Bob"), (alice, "x")):
                r = await who.post(f"/api/rooms/{code}/join", json={"name": name})
                assert r.status_code == 200, r.text
        finally:
            lock.execute("COMMIT")
            lock.close()
        code, _ = await _room(guest)
        gone = make_engine(f"postgresql+asyncpg://postgres@127.0.0.1:{free_port()}/none")
        sqlite_app.state.db_sessions = session_factory(gone)
        sqlite_app.state.db_engine = gone  # where a guest's name is checked
        sqlite_app.state.db_reader = None  # (on SQLite, by way of its reader thread)
        try:
            refused(await guest.post(f"/api/rooms/{code}/join", json={"name": "Bob"}),
                    503, "unavailable")
            refused(await alice.post(f"/api/rooms/{code}/join", json={"name": "x"}),
                    503, "unavailable")
        finally:
            await gone.dispose()

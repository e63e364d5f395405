"""Renaming keeps the old name in the history (held for the account); deleting an account
keeps its games (as a deleted player's) and holds its name a while; the export holds this
account's data only."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from db.helpers import finished, new_room
from fastapi import FastAPI
from sqlalchemy import text

from server.accounts import store
from server.accounts.limits import Limits
from server.accounts.names import name_key
from server.db import store as db_store
from server.db.models import utcnow
from server.db.records import SeatRecord

from .conftest import client, refused, sign_up

pytestmark = pytest.mark.asyncio
T = datetime(2026, 12, 1, 6, 0, tzinfo=UTC)


async def _game(app: FastAPI, code: str, alice: int, bob: int | None) -> None:
    """A finished game: Alice at seat 0, Bob at seat 1, a guest at seat 2."""
    room = new_room(code, T, players=3)
    game = finished(room, T, T)
    roster = (SeatRecord(0, "Alice", account_id=alice), SeatRecord(1, "Bob", account_id=bob),
              SeatRecord(2, "Guest Gus"))
    async with app.state.db_sessions() as session, session.begin():
        await db_store.save_finished_game(session, replace(game, players=roster))


async def test_rename_keeps_the_old_name_in_the_history(app: FastAPI) -> None:
    async with client(app) as alice, client(app) as bob:
        me = await sign_up(alice, "Alice")
        await sign_up(bob, "Bob")
        refused(await alice.post("/api/me/name", json={"name": "b0b"}), 409, "name_taken")
        refused(await alice.post("/api/me/name", json={"name": "Expert"}), 422, "name_reserved")
        r = await alice.post("/api/me/name", json={"name": "Alicia"})
        assert r.json() == {"id": me["id"], "name": "Alicia"}
        document = (await alice.get("/api/me/export")).json()
        assert document["account"]["name"] == "Alicia"
        assert [n["name"] for n in document["old_names"]] == ["Alice"]
    async with client(app) as newcomer:  # the old name is held (tests/accounts/test_old_names)
        r = await newcomer.post("/api/accounts", json={"name": "Alice",
                                                       "password": "correct horse"})
        refused(r, 409, "name_taken")


async def test_export_holds_my_data_and_no_other_players(app: FastAPI) -> None:
    async with client(app) as alice, client(app) as bob:
        a = await sign_up(alice, "Alice")
        b = await sign_up(bob, "Bob")
        await _game(app, "GAME0001", a["id"], b["id"])
        r = await alice.get("/api/me/export")
        assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
        document = r.json()
        assert document["account"]["id"] == a["id"]
        assert [(g["room"], g["seat"], g["name"]) for g in document["games"]] == [
            ("GAME0001", 0, "Alice")]
        assert len(document["sessions"]) == 1
        flat = json.dumps(document)
        assert "Bob" not in flat and "Gus" not in flat and "password_hash" not in flat
        assert bob.cookies["cr_session"] not in flat and alice.cookies["cr_session"] not in flat


async def test_deleting_an_account_keeps_its_games_and_holds_its_name_a_while(
        app: FastAPI) -> None:
    async with client(app) as alice, client(app) as other:
        a = await sign_up(alice, "Alice")
        await _game(app, "GAME0002", a["id"], None)
        refused(await alice.post("/api/me/delete", json={"name": "alice?"}), 422, "malformed")
        r = await alice.post("/api/me/delete", json={"name": "Alice"})
        assert r.status_code == 200 and "cr_session" not in alice.cookies
        async with app.state.db_sessions() as session:
            players = [tuple(p) for p in await session.execute(text(
                "SELECT seat, name, account_id FROM game_players ORDER BY seat"))]
            (deleted,) = (await session.execute(text(
                "SELECT deleted_at IS NOT NULL, password_hash, name FROM accounts"))).all()
        assert players == [(0, "Alice", a["id"]), (1, "Bob", None), (2, "Guest Gus", None)]
        assert tuple(deleted) == (True, None, "")
        r = await other.post("/api/sign-in/password",
                             json={"name": "Alice", "password": "correct horse"})
        refused(r, 401, "bad_credentials")
        r = await other.post("/api/accounts", json={"name": "Alice", "password": "x" * 12})
        refused(r, 409, "name_taken")  # held NAME_HOLD_DAYS (issue 41.17): nobody passes for her
        hold = Limits.of(app.state.settings).hold
        async with app.state.db_sessions() as session:
            later = utcnow() + hold.hold + timedelta(minutes=1)
            assert await store.holder(session, name_key("Alice"), hold, later) is None

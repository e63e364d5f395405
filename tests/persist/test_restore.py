"""Rooms come back after a restart as they were: seats, names, bots, host, tokens (kept
as hashes only), the game; a room from other rules is shown but not replayed."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select, text

from server.db import store
from server.db.migrate import upgrade
from server.db.models import Base
from server.db.records import ActionRecord, NewRoom, SeatRecord
from server.db.session import make_engine, session_factory
from server.rules import RULES_VERSION, apply, legal_actions, new_game
from tests.stored import game_by_room

from .live import play_in_process, seat_views

AT = datetime(2026, 1, 1, tzinfo=UTC)


def db(url: str, work: Callable[[Any], Any]) -> Any:
    async def go() -> Any:
        engine = make_engine(url)
        try:
            async with session_factory(engine).begin() as session:
                return await work(session)
        finally:
            await engine.dispose()

    return asyncio.run(go())


def every_row_as_text(url: str) -> str:
    async def dump(session: Any) -> str:
        out = []
        for table in Base.metadata.sorted_tables:
            out += [repr(tuple(row)) for row in await session.execute(select(table))]
        return "\n".join(out)

    return db(url, dump)


def play(client: TestClient, code: str, n: int, rng: random.Random) -> None:
    """`n` random legal actions, whoever's turn it is."""
    play_in_process(client, code,
                    lambda room, seat: rng.choice(room.view(seat)["game"]["legal"]), n)


def test_a_restart_brings_back_seats_bots_host_and_game_with_hashed_tokens(app_on, db_url):
    rng = random.Random(4)
    with app_on() as client:
        created = client.post("/api/rooms", json={"players": 3, "public": True}).json()
        code, host = created["code"], created["host_token"]
        tokens = [client.post(f"/api/rooms/{code}/join", json={"name": n}).json()["seat_token"]
                  for n in ("Ana", "Bo")]
        assert client.post(f"/api/rooms/{code}/bot",
                           json={"token": host, "seat": 2, "level": "greedy"}).is_success
        assert client.post(f"/api/rooms/{code}/host",
                           json={"token": host, "seat": 1}).is_success
        assert client.post(f"/api/rooms/{code}/start", json={"token": host}).is_success
        play(client, code, 12, rng)
        room = client.app.state.rooms.get(code)
        before = {"info": room.info(), "views": [room.view(s)["game"] for s in range(3)]}
        actions = list(room.actions)

    stored = every_row_as_text(db_url)
    for token in (host, *tokens):
        assert token not in stored
        assert store.hash_token(token) in stored

    with app_on() as client:
        room = client.app.state.rooms.get(code)
        assert room.info() == before["info"]
        assert [room.view(s)["game"] for s in range(3)] == before["views"]
        assert room.actions == actions and room.game.version == 12
        assert (room.seats[2].bot, room.seats[2].name, room.host_seat) == ("greedy", None, 1)
        # The tokens still work: seat 1 is the host, Ana plays her seat over the socket.
        assert client.post(f"/api/rooms/{code}/kick",
                           json={"token": tokens[1], "seat": 2}).is_success
        with client.websocket_connect(f"/ws/{code}") as ws:
            ws.send_json({"type": "hello", "token": tokens[0], "v": None})
            assert ws.receive_json()["view"]["you"] == {"seat": 0, "role": "player"}


def test_a_game_over_but_not_yet_saved_is_saved_at_start_up(app_on, db_url):
    upgrade(db_url)
    game, actions, rng = new_game(8, 2), [], random.Random(8)
    while game.phase != "over":
        seat, action = game.current, rng.choice(legal_actions(game))
        apply(game, action, seat)
        actions.append(ActionRecord("GAME2345", game.version, seat, action, AT))
    room = NewRoom("GAME2345", {"players": 2}, 8, RULES_VERSION, "h" * 64, AT,
                   (SeatRecord(0, "Ana", None, "a" * 64), SeatRecord(1, "Bo", "random")))

    async def setup(s: Any) -> None:
        await store.create_room(s, room)
        await store.start_room(s, room.code, options=room.options, seed=8, started_at=AT)
        await store.append_actions(s, actions)

    db(db_url, setup)
    with app_on() as client:
        info = client.get("/api/rooms/GAME-2345").json()
        assert info["status"] == "finished"
        assert client.app.state.rooms.get("GAME2345").view(0)["game"] == seat_views(game)[0]
    saved = db(db_url, lambda s: game_by_room(s, "GAME2345"))
    assert saved.result == game.result
    assert [(p.name, p.bot) for p in saved.summary.players] == [("Ana", None), ("random bot",
                                                                                "random")]


def test_a_room_from_other_rules_is_shown_but_not_replayed(app_on, db_url):
    upgrade(db_url)
    room = NewRoom("PAST2345", {"players": 2}, 3, RULES_VERSION + 1, store.hash_token("h"), AT,
                   (SeatRecord(0, "Ana", None, store.hash_token("a")), SeatRecord(1, "Bo")))
    # An action the current rules would refuse: it must never reach the engine.
    bogus = ActionRecord("PAST2345", 1, 0, {"type": "teleport"}, AT)

    async def setup(s: Any) -> None:
        await store.create_room(s, room)
        await store.start_room(s, room.code, options=room.options, seed=3, started_at=AT)
        await store.append_actions(s, [bogus])

    db(db_url, setup)
    with app_on() as client:
        info = client.get("/api/rooms/PAST-2345").json()
        assert info["status"] == "incompatible"
        assert f"rules version {RULES_VERSION + 1}" in info["notice"]
        assert [s["name"] for s in info["seats"]] == ["Ana", "Bo"]
        with client.websocket_connect("/ws/PAST2345") as ws:
            ws.send_json({"type": "hello", "token": "a", "v": None})
            error = ws.receive_json()
            assert (error["type"], error["code"]) == ("error", "incompatible")
            assert "cannot continue" in error["message"]
        refused = client.post("/api/rooms/PAST2345/join", json={"name": "Cy"})
        assert refused.status_code == 409 and refused.json()["error"]["code"] == "incompatible"
    # Still unfinished, journal kept: a server of the old rules could still finish it.
    rooms = db(db_url, store.load_unfinished_rooms)
    assert [(r.code, len(r.actions)) for r in rooms] == [("PAST2345", 1)]
    assert db(db_url, lambda s: s.scalar(text("SELECT count(*) FROM games"))) == 0

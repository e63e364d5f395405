"""Talk in the database: migration 0004 with data in the tables (both ways, both
databases), talk rows of unfinished rooms, a finished game's talk, a "gg" after the end."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from sqlalchemy import text

from server.db import ops, store
from server.db.migrate import downgrade_async, upgrade_async
from server.db.records import FinishedGame, NewRoom, SeatRecord
from server.db.session import make_engine, session_factory
from server.rules import RULES_VERSION
from tests.stored import game_by_room

T = datetime(2026, 12, 1, 6, 0, tzinfo=UTC)
RESULT = {"scores": [{"total": 3, "orders": 3, "upgrades": 0, "penalties": 0, "rush": 0,
                      "tiles": []}] * 2, "places": [1, 2], "winners": [0], "turns": [5, 5],
          "reason": "deck"}


def chat(n: int, text_: str, after: int = 0) -> dict:
    return {"n": n, "kind": "chat", "channel": "players", "author": "p0", "seat": 0,
            "name": "Ana", "text": text_, "reaction": None, "after": after, "at": n}


async def _rows(url: str, sql: str) -> list[tuple]:
    engine = make_engine(url)
    try:
        async with engine.connect() as conn:
            return [tuple(r) for r in await conn.execute(text(sql))]
    finally:
        await engine.dispose()


async def _exec(url: str, *statements: str) -> None:
    engine = make_engine(url)
    try:
        async with engine.begin() as conn:
            for sql in statements:
                await conn.execute(text(sql))
    finally:
        await engine.dispose()


@pytest.mark.asyncio
async def test_migration_0004_keeps_every_row_both_ways(db_url: str) -> None:
    await upgrade_async(db_url, "0003")
    await _exec(
        db_url,
        "INSERT INTO rooms (id, code, options, seed, rules_version, status, host_token_hash,"
        " created_at, owner_epoch) VALUES (1, 'ABCDEFGH', '{\"players\": 2}', '7', 1,"
        " 'playing', 'h', '2026-12-01 06:00:00', 0)",
        "INSERT INTO room_seats (room_id, seat, name) VALUES (1, 0, 'Ana')",
        "INSERT INTO journal (room_id, seq, seat, action, created_at)"
        " VALUES (1, 1, 0, '{\"type\": \"stop\"}', '2026-12-01 06:00:01')",
        "INSERT INTO games (id, room_code, seed, options, rules_version, actions, action_count,"
        " turns, end_reason, result, started_at, ended_at) VALUES (1, 'ZZZZZZZZ', '9',"
        " '{\"players\": 2}', 1, '[]', 0, 5, 'deck', '{}', '2026-12-01 05:00:00',"
        " '2026-12-01 05:30:00')",
    )
    before = await _rows(db_url, "SELECT id, code, status FROM rooms")
    await upgrade_async(db_url)
    assert await _rows(db_url, "SELECT id, code, status FROM rooms") == before
    talk = await _rows(db_url, "SELECT talk FROM games")
    assert [json.loads(t) if isinstance(t, str) else t for (t,) in talk] == [[]]
    await _exec(
        db_url,
        "INSERT INTO room_talk (room_id, n, kind, data, created_at) VALUES"
        " (1, 1, 'chat', '{\"n\": 1}', '2026-12-01 06:00:02')",
        "UPDATE games SET talk = '[{\"n\": 1, \"kind\": \"chat\"}]'",
    )
    await downgrade_async(db_url, "0003")
    assert await _rows(db_url, "SELECT id, code, status FROM rooms") == before
    assert await _rows(db_url, "SELECT room_id, seq FROM journal") == [(1, 1)]
    assert await _rows(db_url, "SELECT id, room_code FROM games") == [(1, "ZZZZZZZZ")]
    await upgrade_async(db_url)
    assert await _rows(db_url, "SELECT count(*) FROM room_talk") == [(1,)]  # kept both ways
    assert await _rows(db_url, "SELECT room_code, turns FROM games") == [("ZZZZZZZZ", 5)]


async def _apply(sessions, *batch: dict) -> None:
    async with sessions() as session, session.begin():
        await ops.apply_ops(session, batch, replaying=False)


@pytest.mark.asyncio
async def test_talk_follows_a_room_into_its_finished_game(migrated_url: str) -> None:
    engine = make_engine(migrated_url)
    sessions = session_factory(engine)
    try:
        seats = (SeatRecord(0, "Ana", None, "a"), SeatRecord(1, "Bo", None, "b"))
        await _apply(sessions, ops.room_created(NewRoom(
            "TALKROOM", {"players": 2, "clock": {"turn": 60, "bank": 300}}, 7, RULES_VERSION,
            "h", T, seats)))
        clock = {"n": 0, "kind": "clock", "key": [1, 0], "turn_ms": 1000,
                 "bank_ms": [5, 6], "spent": False}
        await _apply(sessions, ops.talk("TALKROOM", chat(1, "hi"), T),
                     ops.talk("TALKROOM", clock, T),
                     ops.talk("TALKROOM", {**clock, "turn_ms": 500}, T),  # replaces n = 0
                     ops.talk("TALKROOM", chat(1, "hi"), T))  # a replay: kept once
        async with sessions() as session:
            room = await store.load_unfinished_room(session, "TALKROOM")
        assert room is not None
        assert [t["n"] for t in room.talk] == [0, 1] and room.talk[0]["turn_ms"] == 500
        finished = FinishedGame("TALKROOM", 7, {"players": 2}, RULES_VERSION, seats, (),
                                RESULT, T, T, talk=(chat(1, "hi"),))
        await _apply(sessions, ops.game_finished(finished), ops.talk("TALKROOM", chat(2, "gg"), T),
                     ops.talk("TALKROOM", chat(2, "gg"), T))
        async with sessions() as session:
            game = await game_by_room(session, "TALKROOM")
            left = await session.scalar(text("SELECT count(*) FROM room_talk"))
        assert game is not None and [t["text"] for t in game.talk] == ["hi", "gg"]
        assert left == 0
    finally:
        await engine.dispose()

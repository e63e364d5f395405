"""The live journal's short way (server.db.sqlite_short on SQLite; on PostgreSQL
server.db.rawinsert's one statement over arrays) stores rows exactly as the ORM path does, and
leaves a batch with a row already there to the ORM path's checks."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from server.db import store
from server.db.journal import Journal
from server.db.records import ActionRecord, JournalConflict
from server.db.session import session_factory
from server.db.sqlite_writer import SqliteWriter

from .conftest import UNHURRIED, Clock
from .helpers import new_room

pytestmark = pytest.mark.asyncio

ACTION = {"type": "pour", "ingredient": "milk", "cup": 1, "note": "café ☕", "n": None}


async def stored(engine: AsyncEngine, code: str) -> list[tuple]:
    """The journal rows of a room as the database holds them (text, not decoded)."""
    async with engine.connect() as conn:
        rows = await conn.execute(text(
            "SELECT j.seq, j.seat, CAST(j.action AS TEXT), CAST(j.created_at AS TEXT) "
            "FROM journal j JOIN rooms r ON r.id = j.room_id WHERE r.code = :code "
            "ORDER BY j.seq"), {"code": code})
        return [tuple(row) for row in rows]


async def test_rows_are_stored_as_the_orm_stores_them(
    engine: AsyncEngine, tmp_path: Path, clock: Clock
) -> None:
    journal = Journal(engine, tmp_path / "fallback.jsonl", clock=clock, write_timeout=UNHURRIED)
    await journal.start()
    for code in ("RAWPATH1", "ORMPATH1"):
        await journal.room_created(new_room(code, clock()))
    at = clock()
    await journal.action_accepted("RAWPATH1", 1, 2, ACTION, at)  # live: the short way on SQLite
    await journal.stop()
    async with session_factory(engine)() as session, session.begin():
        await store.append_actions(  # a replay: always the ORM path
            session, [ActionRecord("ORMPATH1", 1, 2, ACTION, at)], replaying=True)
    assert await stored(engine, "RAWPATH1") == await stored(engine, "ORMPATH1")
    async with session_factory(engine)() as session:
        room = await store.load_unfinished_room(session, "RAWPATH1")
    assert room is not None and list(room.actions) == [(1, 2, ACTION)]


async def test_a_row_already_there_goes_through_the_orm_checks(
    engine: AsyncEngine, tmp_path: Path, clock: Clock
) -> None:
    journal = Journal(engine, tmp_path / "fallback.jsonl", clock=clock, write_timeout=UNHURRIED)
    await journal.start()
    await journal.room_created(new_room("RAWPATH2", clock()))
    await journal.action_accepted("RAWPATH2", 1, 0, ACTION)
    await journal.action_accepted("RAWPATH2", 1, 0, ACTION)  # an identical repeat: accepted
    with pytest.raises(JournalConflict):
        await journal.action_accepted("RAWPATH2", 1, 0, {"type": "end_turn"})
    await journal.action_accepted("RAWPATH2", 2, 0, ACTION)
    await journal.stop()
    assert [row[0] for row in await stored(engine, "RAWPATH2")] == [1, 2]
    assert isinstance(journal._db, SqliteWriter) == (engine.dialect.name == "sqlite")


"""SQLite journal transactions are one trip each to the writer's thread (sqlite_writer.py):
a busy event loop delays only the news of a commit, so a healthy disk never looks down."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from sqlalchemy import text

from server.db.journal import Journal
from server.db.session import make_engine
from server.db.sqlite_writer import run_to_end
from server.jsontext import dumps

from .conftest import UNHURRIED, Clock
from .helpers import new_room
from .test_fallback import seqs, step

DEADLINE = 0.2
STALL = 3 * DEADLINE  # the loop stands still for three deadlines


async def stalled(work: asyncio.Future[None]) -> None:
    """Let `work` reach the journal's writer, stall the event loop, then finish `work`."""
    for _ in range(3):
        await asyncio.sleep(0)
    time.sleep(STALL)
    await work


@pytest.mark.asyncio
async def test_a_stalled_loop_does_not_send_a_healthy_disk_to_the_fallback_file(
    sqlite_url: str, tmp_path: Path, clock: Clock
) -> None:
    """Both kinds of batch: a room's set-up (many statements) and a run of actions. With a
    trip per statement, the commit was handed over only after the stall, past DB_TIMEOUT,
    and the write went to the fallback file."""
    engine = make_engine(sqlite_url)
    journal = Journal(engine, tmp_path / "fallback.jsonl", clock=clock, write_timeout=DEADLINE)
    await journal.start()
    try:
        room = new_room("STALLED1", clock(), players=4)
        await stalled(asyncio.ensure_future(journal.room_created(room)))
        await journal.action_accepted("STALLED1", 1, 0, step(1))  # the room is known unfinished now
        await stalled(asyncio.ensure_future(journal.action_accepted("STALLED1", 2, 0, step(2))))
        assert not journal.degraded
    finally:
        await journal.stop()
    assert not (tmp_path / "fallback.jsonl").exists()
    assert await seqs(engine, "STALLED1") == [1, 2]
    await engine.dispose()


@pytest.mark.asyncio
async def test_json_columns_are_stored_as_compact_text(
    sqlite_url: str, tmp_path: Path, clock: Clock
) -> None:
    """The writer's thread encodes every action and finished game while holding the GIL:
    through server.jsontext (orjson), not the json module, which took 11% of its CPU."""
    engine = make_engine(sqlite_url)
    journal = Journal(engine, tmp_path / "fallback.jsonl", clock=clock, write_timeout=UNHURRIED)
    await journal.start()
    action = {"type": "order", "note": "café ☕", "cups": [1, 2]}
    try:
        await journal.room_created(new_room("COMPACT1", clock(), players=2))
        await journal.action_accepted("COMPACT1", 1, 0, action)
    finally:
        await journal.stop()
    async with engine.connect() as conn:
        stored = (await conn.execute(text("SELECT CAST(action AS TEXT) FROM journal"))).scalar()
    assert stored == dumps(action) == '{"type":"order","note":"café ☕","cups":[1,2]}'
    await engine.dispose()


def test_a_store_call_that_really_waits_is_refused() -> None:
    async def waits() -> None:
        await asyncio.sleep(0)

    async def returns() -> int:
        return 7

    assert run_to_end(returns()) == 7
    with pytest.raises(RuntimeError, match="waited"):
        run_to_end(waits())

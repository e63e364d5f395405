"""The journal: durable on return, group commit, one bad write fails alone, the hooks."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from server.db import store
from server.db.journal import Journal
from server.db.models import Game, JournalEntry
from server.db.records import JournalConflict, SeatRecord, UnknownRoom
from server.db.session import session_factory

from .conftest import UNHURRIED, Clock
from .helpers import finished, new_room

pytestmark = pytest.mark.asyncio


def count_commits(journal: Journal) -> list[int]:
    """The size of each transaction the journal commits (on SQLite, a batch of actions only
    commits on a connection of its own, which the engine's events do not see)."""
    commits: list[int] = []
    journal.on_commit = lambda size, _seconds: commits.append(size)
    return commits


async def journal_seqs(engine: AsyncEngine) -> list[int]:
    async with session_factory(engine)() as s:
        return list(await s.scalars(select(JournalEntry.seq).order_by(JournalEntry.seq)))


def step(seq: int) -> dict:
    return {"type": "step", "cell": seq % 16}


async def test_record_is_committed_when_it_returns(
    engine: AsyncEngine, tmp_path: Path, clock: Clock
) -> None:
    journal = Journal(engine, tmp_path / "fallback.jsonl", clock=clock, write_timeout=UNHURRIED)
    await journal.start()
    await journal.room_created(new_room("DURABLE1", clock()))
    await journal.action_accepted("DURABLE1", 1, 0, step(1))
    assert await journal_seqs(engine) == [1]  # read through another connection
    await journal.stop()
    assert not journal.degraded and not (tmp_path / "fallback.jsonl").exists()


async def test_concurrent_records_share_transactions(
    engine: AsyncEngine, tmp_path: Path, clock: Clock
) -> None:
    journal = Journal(engine, tmp_path / "fallback.jsonl", max_batch=20, clock=clock,
                      write_timeout=UNHURRIED)
    await journal.start()
    await journal.room_created(new_room("GROUP001", clock()))
    commits = count_commits(journal)
    for seq in range(1, 4):  # one at a time: nothing to share
        await journal.action_accepted("GROUP001", seq, 0, step(seq))
    assert commits == [1, 1, 1]
    # 50 records handed over at once: 20 + 20 + 10, one transaction each
    await asyncio.gather(*(journal.action_accepted("GROUP001", s, 0, step(s))
                           for s in range(4, 54)))
    assert commits == [1, 1, 1, 20, 20, 10]
    await journal.stop()
    assert await journal_seqs(engine) == list(range(1, 54))


async def test_a_record_whose_caller_is_cancelled_is_written_all_the_same(
    engine: AsyncEngine, tmp_path: Path, clock: Clock
) -> None:
    """Handed over is handed over: cancelling the wait (a socket gone mid-action) does not
    take the action back, and the batch it shares is not disturbed."""
    journal = Journal(engine, tmp_path / "fallback.jsonl", clock=clock, write_timeout=UNHURRIED)
    await journal.start()
    await journal.room_created(new_room("CANCEL01", clock()))
    waiting = asyncio.create_task(journal.action_accepted("CANCEL01", 1, 0, step(1)))
    await asyncio.sleep(0)  # queued, not yet written
    waiting.cancel()
    await journal.action_accepted("CANCEL01", 2, 0, step(2))
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert await journal_seqs(engine) == [1, 2]
    await journal.stop()
    assert not journal.degraded


async def test_a_bad_write_fails_alone(engine: AsyncEngine, tmp_path: Path, clock: Clock) -> None:
    journal = Journal(engine, tmp_path / "fallback.jsonl", clock=clock, write_timeout=UNHURRIED)
    await journal.start()
    await journal.room_created(new_room("BADWRITE", clock()))
    await journal.action_accepted("BADWRITE", 1, 0, step(1))
    results = await asyncio.gather(
        journal.action_accepted("BADWRITE", 2, 0, step(2)),
        journal.action_accepted("BADWRITE", 1, 1, {"type": "end_turn"}),  # seq 1 again, different
        journal.action_accepted("NOSUCH00", 1, 0, step(1)),
        journal.action_accepted("BADWRITE", 3, 0, step(3)),
        return_exceptions=True,
    )
    assert results[0] is None and results[3] is None
    assert isinstance(results[1], JournalConflict) and isinstance(results[2], UnknownRoom)
    await journal.action_accepted("BADWRITE", 1, 0, step(1))  # an identical repeat is harmless
    await journal.stop()
    assert await journal_seqs(engine) == [1, 2, 3] and not journal.degraded


async def test_room_lifecycle_hooks(engine: AsyncEngine, tmp_path: Path, clock: Clock) -> None:
    journal = Journal(engine, tmp_path / "fallback.jsonl", clock=clock, write_timeout=UNHURRIED)
    await journal.start()
    room = new_room("LIFE0001", clock(), players=2, seed=5)
    await journal.room_created(room)
    await journal.room_created(new_room("LEFT0001", clock()))
    await journal.seats_changed(room.code, room.seats[:1] + (SeatRecord(1, "Botty", "strong"),))
    await journal.room_started(room.code, options=room.options, seed=room.seed)
    game = finished(room, clock(), clock(), names=("Ada", "Botty"))
    for seq, (seat, action) in enumerate(game.actions[:10], start=1):
        await journal.action_accepted(room.code, seq, seat, action)
    sessions = session_factory(engine)
    async with sessions() as s:
        rooms = {r.code: r for r in await store.load_unfinished_rooms(s)}
    assert rooms[room.code].status == "playing" and len(rooms[room.code].actions) == 10
    assert rooms[room.code].seats[1] == SeatRecord(1, "Botty", "strong", None)
    await journal.game_finished(game)
    await journal.room_abandoned("LEFT0001")
    await journal.stop()
    async with sessions() as s:
        assert await store.load_unfinished_rooms(s) == []
        assert await s.scalar(select(func.count()).select_from(Game)) == 1
        page = await store.list_games(s, player="botty")
    assert page.total == 1 and page.items[0].room_code == room.code


async def test_stop_writes_what_was_handed_over(
    engine: AsyncEngine, tmp_path: Path, clock: Clock
) -> None:
    journal = Journal(engine, tmp_path / "fallback.jsonl", clock=clock, write_timeout=UNHURRIED)
    await journal.start()
    await journal.room_created(new_room("STOP0001", clock()))
    tasks = [asyncio.create_task(journal.action_accepted("STOP0001", s, 0, step(s)))
             for s in range(1, 6)]
    await asyncio.sleep(0)  # the records are queued, not yet written
    await journal.stop()
    await asyncio.gather(*tasks)
    assert await journal_seqs(engine) == [1, 2, 3, 4, 5]
    with pytest.raises(RuntimeError):
        await journal.action_accepted("STOP0001", 6, 0, step(6))

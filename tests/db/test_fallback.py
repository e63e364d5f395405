"""The database goes away: acknowledged writes wait in the fallback file, are copied back in
order once it returns, and survive the process being killed in the meantime."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from server.db import store
from server.db.fallback import FallbackFile
from server.db.journal import Journal
from server.db.models import JournalEntry
from server.db.session import make_engine, session_factory
from tests.ports import free_port

from .conftest import UNHURRIED, Clock, Outage
from .helpers import new_room

ROOT = Path(__file__).resolve().parents[2]


def step(seq: int) -> dict:
    return {"type": "step", "cell": seq % 16}


async def eventually(predicate: Callable[[], bool], bound: float = 20.0) -> None:
    """Wait for a state change; the bound only keeps a broken build from hanging."""
    async with asyncio.timeout(bound):
        while not predicate():
            await asyncio.sleep(0.01)


async def seqs(engine: AsyncEngine, code: str) -> list[int]:
    async with session_factory(engine)() as s:
        rooms = {r.code: r for r in await store.load_unfinished_rooms(s)}
        if code not in rooms:
            return []
        return [seq for seq, _, _ in rooms[code].actions]


# --- the file itself ---------------------------------------------------------------------


def test_file_appends_reads_and_clears(tmp_path: Path) -> None:
    f = FallbackFile(tmp_path / "sub" / "fallback.jsonl")
    assert not f.pending() and f.read() == []
    f.append(['{"a":1}', '{"a":2}'])
    f.append(['{"a":3}'])
    assert f.pending() and f.read() == ['{"a":1}', '{"a":2}', '{"a":3}']
    f.clear()
    assert not f.pending() and f.read() == []


def test_a_torn_last_line_is_cut_off(tmp_path: Path) -> None:
    f = FallbackFile(tmp_path / "fallback.jsonl")
    f.append(['{"a":1}'])
    with open(f.path, "ab") as raw:  # a crash in the middle of an append
        raw.write(b'{"a":2,"b"')
    assert f.read() == ['{"a":1}']
    f.append(['{"a":3}'])
    assert f.read() == ['{"a":1}', '{"a":3}']


# --- outages -----------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_outage_goes_to_the_file_and_comes_back_in_order(
    engine: AsyncEngine, outage: Outage, tmp_path: Path, clock: Clock
) -> None:
    fallback = tmp_path / "fallback.jsonl"
    journal_engine = make_engine(outage.url, connect_timeout=0.5)
    journal = Journal(journal_engine, fallback, retry_interval=0.02, write_timeout=5,
                      clock=clock)
    await journal.start()
    await journal.room_created(new_room("OUTAGE01", clock()))
    for seq in (1, 2, 3):
        await journal.action_accepted("OUTAGE01", seq, 0, step(seq))

    await outage.cut()
    await journal.action_accepted("OUTAGE01", 4, 0, step(4))
    assert journal.degraded
    await asyncio.gather(*(journal.action_accepted("OUTAGE01", s, 0, step(s))
                           for s in range(5, 20)))
    await journal.room_created(new_room("OUTAGE02", clock()))  # a room born in the outage
    await journal.action_accepted("OUTAGE02", 1, 1, step(1))
    assert len(FallbackFile(fallback).read()) == 16 + 2
    assert await seqs(engine, "OUTAGE01") == [1, 2, 3]  # nothing else reached the database

    await outage.restore()
    await eventually(lambda: not journal.degraded)
    assert await seqs(engine, "OUTAGE01") == list(range(1, 20))
    assert await seqs(engine, "OUTAGE02") == [1]
    assert not FallbackFile(fallback).pending()
    await journal.action_accepted("OUTAGE01", 20, 0, step(20))  # straight to the database again
    assert not FallbackFile(fallback).pending()
    await journal.stop()
    await journal_engine.dispose()
    assert await seqs(engine, "OUTAGE01") == list(range(1, 21))
    assert not FallbackFile(fallback).rejected_path.exists()


CHILD = """
import asyncio, sys
from datetime import UTC, datetime
from server.db.journal import Journal
from server.db.session import make_engine
from tests.db.helpers import new_room

async def main(url, fallback):
    journal = Journal(make_engine(url, connect_timeout=2), fallback, retry_interval=3600)
    await journal.start()
    await journal.room_created(new_room("KILLED01", datetime.now(UTC)))
    seq = 0
    while True:  # acknowledge one write at a time until killed
        seq += 1
        await journal.action_accepted("KILLED01", seq, seq % 3, {"type": "step", "cell": seq % 16})
        print(seq, "degraded" if journal.degraded else "db", flush=True)

asyncio.run(main(sys.argv[1], sys.argv[2]))
"""


def run_child_until_killed(fallback: Path, acks: int) -> int:
    """A server that journals during an outage and is SIGKILLed; returns its last ack."""
    unreachable = f"postgresql+asyncpg://postgres@127.0.0.1:{free_port()}/gone"
    last = 0
    with subprocess.Popen(  # leaving the block closes its stdout pipe
        [sys.executable, "-c", CHILD, unreachable, str(fallback)], cwd=ROOT,
        stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
    ) as child:
        try:
            assert child.stdout is not None
            for line in child.stdout:
                seq, where = line.split()
                assert where == "degraded"
                last = int(seq)
                if last >= acks:
                    break
        finally:
            child.send_signal(signal.SIGKILL)
            child.wait()
    return last


@pytest.mark.asyncio
async def test_acknowledged_writes_survive_a_kill_during_the_outage(
    engine: AsyncEngine, tmp_path: Path
) -> None:
    fallback = tmp_path / "fallback.jsonl"
    acked = await asyncio.to_thread(run_child_until_killed, fallback, 40)
    assert acked == 40
    saved = fallback.read_bytes()

    # The restarted server: the file is replayed first.
    journal = Journal(engine, fallback, write_timeout=UNHURRIED)
    await journal.start()
    assert not journal.degraded and not FallbackFile(fallback).pending()
    got = await seqs(engine, "KILLED01")
    # every acknowledged write is there, in order; the kill may have caught one more
    assert got == list(range(1, len(got) + 1)) and len(got) >= acked
    await journal.stop()

    fallback.write_bytes(saved)  # a crash after the copy but before the truncate
    again = Journal(engine, fallback, write_timeout=UNHURRIED)
    await again.start()
    await again.stop()
    assert await seqs(engine, "KILLED01") == got  # replaying twice changes nothing
    async with session_factory(engine)() as s:
        rows = (await s.execute(select(JournalEntry.seq, JournalEntry.seat))).all()
    assert sorted(rows) == [(seq, seq % 3) for seq in got]
    assert not FallbackFile(fallback).rejected_path.exists()


@pytest.mark.asyncio
async def test_a_refused_line_is_set_aside_and_the_rest_copied(
    engine: AsyncEngine, tmp_path: Path, clock: Clock
) -> None:
    from server.db import ops
    from server.db.records import ActionRecord

    fallback = FallbackFile(tmp_path / "fallback.jsonl")
    fallback.append([
        ops.encode(ops.room_created(new_room("POISON01", clock()))),
        ops.encode(ops.action(ActionRecord("POISON01", 1, 0, step(1), clock()))),
        ops.encode(ops.action(ActionRecord("NOROOM00", 1, 0, step(1), clock()))),  # refused
        "not json",  # refused
        ops.encode(ops.action(ActionRecord("POISON01", 2, 0, step(2), clock()))),
    ])
    journal = Journal(engine, fallback.path, write_timeout=UNHURRIED)
    await journal.start()
    await journal.stop()
    assert await seqs(engine, "POISON01") == [1, 2]
    rejected = [json.loads(line) for line in fallback.rejected_path.read_text().splitlines()]
    assert rejected[0]["line"] == "not json"  # undecodable: set aside before the copy
    assert json.loads(rejected[1]["line"])["code"] == "NOROOM00"
    assert "UnknownRoom" in rejected[1]["error"] and len(rejected) == 2
    assert not fallback.pending() and not journal.degraded

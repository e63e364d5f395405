"""The fallback file's disk fills during a database outage: a failed append leaves nothing
behind, so every acknowledged write is copied back and nothing is set aside.

A real tmpfs of 64 KiB (root only) holds the fallback file; a ballast file fills it."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from server.db.fallback import FallbackFile
from server.db.journal import Journal
from server.db.session import make_engine

from .conftest import Clock, Outage
from .disk import fill, small_disk
from .helpers import new_room
from .test_fallback import eventually, seqs


def big_step(seq: int) -> dict:
    """An action a few KiB long, so that one append can only partly fit."""
    return {"type": "step", "cell": seq % 16, "note": "x" * 3000}


def test_a_failed_append_leaves_nothing_behind(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk") as disk:
        f = FallbackFile(disk / "fallback.jsonl")
        f.append(['{"a":1}'])
        ballast = fill(disk, leave=2000)
        with pytest.raises(OSError) as refused:
            f.append(['{"a":2,"pad":"' + "y" * 6000 + '"}'])
        assert refused.value.errno == errno.ENOSPC
        assert f.path.read_bytes() == b'{"a":1}\n'  # no partial line
        os.unlink(ballast)
        f.append(['{"a":3}'])
        assert f.read() == ['{"a":1}', '{"a":3}']


@pytest.mark.asyncio
async def test_every_acknowledged_write_survives_a_full_fallback_disk(
    engine: AsyncEngine, outage: Outage, tmp_path: Path, clock: Clock
) -> None:
    with small_disk(tmp_path / "disk") as disk:
        fallback = disk / "fallback.jsonl"
        journal_engine = make_engine(outage.url, connect_timeout=0.5)
        journal = Journal(journal_engine, fallback, retry_interval=0.05, clock=clock)
        await journal.start()
        try:
            await journal.room_created(new_room("FULLDISK", clock()))
            await journal.action_accepted("FULLDISK", 1, 0, big_step(1))
            await outage.cut()
            acked, refused, seq = [1], 0, 1
            ballast = fill(disk, leave=9000)
            while refused < 3:  # the disk fills: some appends fail, partly written
                seq += 1
                try:
                    await journal.action_accepted("FULLDISK", seq, 0, big_step(seq))
                except OSError:
                    refused += 1
                    seq -= 1  # a refused action is not applied: the room retries its seq
                else:
                    acked.append(seq)
            assert journal.degraded and len(acked) >= 2
            os.unlink(ballast)  # space comes back; the next writes are acknowledged again
            for _ in range(3):
                seq += 1
                await journal.action_accepted("FULLDISK", seq, 0, big_step(seq))
                acked.append(seq)
            await outage.restore()
            await eventually(lambda: not journal.degraded)
            assert await seqs(engine, "FULLDISK") == acked
            assert not FallbackFile(fallback).rejected_path.exists()
        finally:
            await journal.stop()
            await journal_engine.dispose()

"""The durable log of everything a room does, with group commit and a local fallback.

    journal = Journal(engine, "data/journal.fallback")
    await journal.start()          # replays a leftover fallback file first
    await journal.action_accepted(code, seq, seat, action)   # returns once durable
    ...
    await journal.stop()

Every write (room created, seats, start, action, finish, abandon) goes through one queue
and one writer task, so they reach the database in the order they were handed over.
Writes that arrive while the writer is busy (or, on PostgreSQL, within `max_wait` seconds)
share one transaction.

No write waits on the database longer than `write_timeout` (a deadline on the whole
transaction, besides the engine's own lock, statement and connect timeouts). A write that
fails because the database is unavailable (errors.is_unavailable) goes to the fallback
file instead (appended and fsync'ed) and `degraded` is True; from then on writes go
straight to the file, without waiting on the database again. A background task copies the
file into the database, retrying with backoff while new writes keep going to the file;
once it has caught up, the writer copies the last few lines itself, empties the file and
writes to the database again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import Engine
from sqlalchemy.ext.asyncio import AsyncEngine

from server.rules import Action

from . import ops
from .fallback import Attempt, FallbackFile, copy_lines, is_unavailable, replay
from .models import utcnow
from .postgres_writer import PostgresWriter
from .records import ActionRecord, Fenced, FinishedGame, NewRoom, SeatRecord
from .session import sqlite_path
from .sqlite_writer import SqliteWriter

log = logging.getLogger(__name__)


class _Item:
    __slots__ = ("op", "done")

    def __init__(self, op: ops.Op, done: asyncio.Future[None]) -> None:
        self.op, self.done = op, done

    @property
    def line(self) -> str:
        """The op as a fallback-file line; encoded only when the file is written (the op
        was checked to be JSON when it was built)."""
        return ops.encode(self.op)

    def resolve(self, error: BaseException | None = None) -> None:
        if self.done.done():  # the caller stopped waiting; the write still happened
            return
        if error is None:
            self.done.set_result(None)
        else:
            self.done.set_exception(error)


class EngineWriter(Protocol):
    """Runs the journal's transactions on one kind of database."""

    @property
    def engine(self) -> Engine: ...

    async def write(self, batch: Sequence[ops.Op], *, replaying: bool,
                    open_rooms: dict[str, int], timeout: float) -> None:
        """One transaction on the writer's own connection, within `timeout` seconds;
        `open_rooms` caches the ids of unfinished rooms (see store.append_actions) and is
        emptied when a transaction fails."""
        ...

    async def write_apart(self, batch: Sequence[ops.Op], timeout: float) -> None:
        """One transaction on a connection of its own (the copy-back's); with no
        operations, a probe that needs a write."""
        ...

    async def close(self) -> None: ...


class Journal:
    def __init__(
        self,
        engine: AsyncEngine,
        fallback_path: str | os.PathLike[str] | None,
        *,
        fence: Callable[[str], int | None] | None = None,
        max_wait: float | None = None,
        # Not small: a commit's cost barely grows with its size (one fsync), so the cap is
        # what bounds the writes per second when each commit waits on a busy event loop
        # (128 a batch capped 1,000 rooms near 550 actions/s, with seconds of backlog).
        max_batch: int = 1024,
        retry_interval: float = 1.0,
        retry_max: float = 30.0,
        write_timeout: float = 2.0,
        clock: Callable[[], datetime] = utcnow,
    ) -> None:
        # None: no fallback (cluster mode), a write the database cannot take is refused.
        self._file = None if fallback_path is None else FallbackFile(fallback_path)
        # Cluster mode: the owner epoch of a room, stamped on each of its writes.
        self._fence = fence
        self._max_batch = max_batch
        self._retry_interval, self._retry_max = retry_interval, retry_max
        self._write_timeout = write_timeout
        self._clock = clock
        self._pending: list[_Item] = []
        self._wake = asyncio.Event()
        self._full = asyncio.Event()
        self._writer: asyncio.Task[None] | None = None
        self._copier: asyncio.Task[None] | None = None
        self._copied = 0  # bytes of the fallback file already copied into the database
        self._caught_up = False  # the copier reached the end: the writer may take over
        self._stopping = False
        self._degraded = False
        self._failing = False  # without a fallback file: the last write found no database
        # An append to the fallback file given up on (its disk hung), still running.
        self._hung_append: asyncio.Future[None] | None = None
        self._file_failing = False  # the last append to the fallback file failed (a full disk)
        # code -> id of the rooms known unfinished: this journal is the only writer of room
        # statuses, so a batch of actions need not look its rooms up again.
        self._open_rooms: dict[str, int] = {}
        # Told (batch size, seconds) after each committed batch, e.g. by the metrics.
        self.on_commit: Callable[[int, float], None] | None = None
        # Told (room code, epoch) when a write is refused as fenced: another instance owns
        # that room now (cluster mode), so this one must stop serving it at once.
        self.on_fenced: Callable[[str, int], None] | None = None
        # Where transactions run: on SQLite, a thread of its own (sqlite_writer.py); on
        # PostgreSQL, the event loop (postgres_writer.py).
        path = sqlite_path(engine.url)
        self._db: EngineWriter = (PostgresWriter(engine) if path is None
                                  else SqliteWriter(path, busy_timeout=write_timeout))
        if max_wait is None:
            # PostgreSQL: a transaction's statements run on the event loop, so fewer, bigger
            # ones save it CPU. SQLite: a transaction costs the loop one trip to the writer's
            # thread whatever its size, and waiting only added latency (1,000 rooms paced at
            # 1 action/s: journal stage p50 8-14 ms with a 3 ms wait, 5-6 ms without).
            max_wait = 0.0 if path is not None else 0.003
        self._max_wait = max_wait

    @property
    def degraded(self) -> bool:
        """True while acknowledged writes sit in the fallback file instead of the database
        (or, with no fallback file, while writes are refused for want of a database)."""
        return self._degraded or self._failing

    @property
    def write_engine(self) -> Engine:
        """The engine this journal writes through (its events see every write)."""
        return self._db.engine

    @property
    def fallback_path(self) -> os.PathLike[str] | None:
        return None if self._file is None else self._file.path

    # --- lifecycle -------------------------------------------------------------------

    async def start(self) -> None:
        """Copy a leftover fallback file into the database (if it is reachable), then start
        the writer. Call before loading unfinished rooms, so they include those writes."""
        if self._writer is not None:
            raise RuntimeError("journal already started")
        if self._file is not None and self._file.pending():
            self._degraded = True
            await self._drain_all()
        self._writer = asyncio.create_task(self._run(), name="journal-writer")

    async def stop(self) -> None:
        """Write everything handed over so far, try a last copy of the fallback file, stop."""
        if self._writer is None or self._stopping:
            return
        self._stopping = True
        self._wake.set()
        self._full.set()
        await asyncio.wait([self._writer])  # a crashed writer was logged already
        if self._copier is not None:
            self._copier.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._copier
        if self._degraded:
            await self._drain_all()
        await self._db.close()

    # --- what the rooms call ---------------------------------------------------------

    async def action_accepted(
        self, room_code: str, seq: int, seat: int | None, action: Action,
        at: datetime | None = None,
    ) -> None:
        """Journal one accepted action; returns once it is committed (or fsync'ed to the
        fallback file). Raises if it cannot be made durable: then it must not be applied."""
        await self.submit(ops.action(
            ActionRecord(room_code, seq, seat, action, at or self._clock())
        ))

    async def room_created(self, room: NewRoom) -> None:
        await self.submit(ops.room_created(room))

    async def seats_changed(
        self, code: str, seats: Sequence[SeatRecord], host_seat: int | None = None
    ) -> None:
        await self.submit(ops.seats_changed(code, seats, host_seat))

    async def room_started(
        self, code: str, *, options: dict[str, Any], seed: int, at: datetime | None = None
    ) -> None:
        await self.submit(ops.room_started(code, options, seed, at or self._clock()))

    async def game_finished(self, game: FinishedGame) -> None:
        await self.submit(ops.game_finished(game))

    async def room_abandoned(self, code: str, at: datetime | None = None) -> None:
        await self.submit(ops.room_abandoned(code, at or self._clock()))

    async def submit(self, op: ops.Op) -> None:
        """Write `op` in the next group commit; return once it is durable."""
        if self._writer is None or self._stopping or self._writer.done():
            raise RuntimeError("the journal is not running")
        if self._fence is not None:
            epoch = self._fence(op["code"])
            if epoch is not None:
                op["epoch"] = epoch
        item = _Item(op, asyncio.get_running_loop().create_future())
        self._pending.append(item)
        if len(self._pending) >= self._max_batch:
            self._full.set()
        self._wake.set()
        # A caller cancelled meanwhile cancels only its wait: the op is written anyway (see
        # _Item.resolve), so no shield (a future and two callbacks per action) is needed.
        await item.done

    # --- the writer ------------------------------------------------------------------

    async def _run(self) -> None:
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                if self._caught_up:
                    await self._take_over()
                while self._pending:
                    await self._gather()
                    batch = self._pending[:self._max_batch]
                    del self._pending[:self._max_batch]
                    await self._flush(batch)
                if self._stopping:
                    return
        except BaseException as exc:
            log.exception("journal writer crashed")
            for item in self._pending:
                item.resolve(RuntimeError(f"journal writer crashed: {exc!r}"))
            self._pending.clear()
            raise

    async def _gather(self) -> None:
        """Group commit: writes that queued up during the previous commit share the next one
        anyway; when several are waiting (so others are busy too), wait up to `max_wait`
        for more. A lone write is never delayed (like PostgreSQL's commit_siblings)."""
        n = len(self._pending)
        if n < 2 or n >= self._max_batch or self._max_wait <= 0 or self._stopping:
            return
        self._full.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._full.wait(), self._max_wait)

    async def _flush(self, batch: list[_Item]) -> None:
        if self._degraded:  # order: nothing may overtake what is already in the file
            await self._to_file(batch)
            return
        started = time.perf_counter()
        try:
            await self._write([item.op for item in batch], replaying=False)
        except Exception as exc:
            if is_unavailable(exc) and self._file is None:
                self._failing = True
                for item in batch:  # nowhere else to keep them: refused, so not applied
                    item.resolve(exc)
            elif is_unavailable(exc):
                self._set_degraded(exc)
                await self._to_file(batch)
            elif len(batch) > 1:  # one bad write must not sink the others in its batch
                for item in batch:
                    await self._flush([item])
            else:
                batch[0].resolve(exc)
                op = batch[0].op
                if isinstance(exc, Fenced) and self.on_fenced is not None and "epoch" in op:
                    self.on_fenced(op["code"], op["epoch"])
        else:
            self._failing = False
            if self.on_commit is not None:
                self.on_commit(len(batch), time.perf_counter() - started)
            for item in batch:
                item.resolve()

    async def _write(self, batch: Sequence[ops.Op], *, replaying: bool) -> None:
        """One transaction on the engine's writer (see EngineWriter.write)."""
        await self._db.write(batch, replaying=replaying, open_rooms=self._open_rooms,
                             timeout=self._write_timeout)

    async def _write_apart(self, batch: Sequence[ops.Op]) -> None:
        """One bounded transaction on a connection of its own (the copier's)."""
        await self._db.write_apart(batch, self._write_timeout)

    @property
    def _fallback(self) -> FallbackFile:
        """The fallback file, for the paths below: only a journal that has one takes them."""
        if self._file is None:
            raise RuntimeError("this journal has no fallback file")
        return self._file

    async def _to_file(self, batch: list[_Item]) -> None:
        """Append the batch, within the write deadline. A disk that does not answer in time
        (hung, frozen) refuses the batch, and every batch after it until the abandoned
        append ends: that append then cuts its lines off again, so a refused write never
        turns up in the file later (see fallback.Attempt)."""
        if self._hung_append is not None:
            for item in batch:
                item.resolve(TimeoutError(f"the fallback file's disk has not answered "
                                          f"for over {self._write_timeout}s"))
            return
        attempt = Attempt()
        task = asyncio.ensure_future(asyncio.to_thread(
            self._fallback.append, [item.line for item in batch], attempt))
        done, _ = await asyncio.wait({task}, timeout=self._write_timeout)
        if task not in done and attempt.abandon():
            log.error("fallback file %s: its disk did not answer within %ss; writes are "
                      "refused until it does", self._fallback.path, self._write_timeout)
            self._hung_append = task
            task.add_done_callback(self._disk_answered)
            for item in batch:
                item.resolve(TimeoutError(f"the fallback file's disk did not answer within "
                                          f"{self._write_timeout}s"))
            return
        try:
            await task
        except OSError as exc:
            if not self._file_failing:  # one line per change of state, not per write
                self._file_failing = True
                log.error("fallback file %s unwritable (%r): writes are refused until it "
                          "takes them again", self._fallback.path, exc)
            for item in batch:
                item.resolve(exc)
        else:
            if self._file_failing:
                self._file_failing = False
                log.warning("fallback file %s writable again", self._fallback.path)
            for item in batch:
                item.resolve()

    def _disk_answered(self, task: asyncio.Future[None]) -> None:
        self._hung_append = None
        error = None if task.cancelled() else task.exception()
        log.warning("fallback file %s: its disk answers again (the abandoned append: %r)",
                    self._fallback.path, error)

    # --- outage and recovery ---------------------------------------------------------

    def _set_degraded(self, exc: BaseException | None) -> None:
        if not self._degraded:
            self._degraded = True
            self._copied = 0
            log.warning("database unavailable (%r): journaling to %s", exc, self._fallback.path)
        self._start_copier()

    def _start_copier(self) -> None:
        if not self._stopping and (self._copier is None or self._copier.done()):
            self._caught_up = False
            self._copier = asyncio.create_task(self._copy_back(), name="journal-copy-back")

    async def _copy_back(self) -> None:
        """In the background, while the writer keeps appending: copy the acknowledged lines
        into the database, retrying with backoff; once caught up, wake the writer."""
        delay = self._retry_interval
        while True:
            await asyncio.sleep(delay)
            end = self._fallback.end
            try:
                lines = await asyncio.to_thread(self._fallback.read_range, self._copied, end)
                if lines:
                    await copy_lines(self._fallback, lines, self._write_apart)
                else:  # nothing to copy: check that a write would go through
                    await self._write_apart([])
            except Exception as exc:
                if not is_unavailable(exc):
                    log.exception("copy-back failed; retrying")
                log.info("database still unavailable (%r); retry in %.1fs", exc, delay)
                delay = min(max(delay, 0.05) * 2, self._retry_max)
                continue
            self._copied = end
            if self._copied >= self._fallback.end:
                self._caught_up = True
                self._wake.set()
                return
            delay = 0  # more was appended meanwhile: go on at once

    async def _take_over(self) -> None:
        """The writer, between batches: copy what was appended since the copier's last look
        (a few lines at most), empty the file and write to the database again."""
        self._caught_up = False
        self._open_rooms.clear()

        async def write(batch: Sequence[ops.Op]) -> None:
            await self._write(batch, replaying=True)

        try:
            end = self._fallback.end
            lines = await asyncio.to_thread(self._fallback.read_range, self._copied, end)
            await copy_lines(self._fallback, lines, write)
            await asyncio.to_thread(self._fallback.clear)
        except Exception as exc:
            log.info("database unavailable again (%r); fallback kept", exc)
            self._start_copier()
            return
        self._copied, self._degraded = 0, False
        log.warning("database available: fallback file %s copied in", self._fallback.path)

    async def _drain_all(self) -> None:
        """Copy the whole file in now (start-up, shutdown); on failure stay degraded."""
        async def write(batch: Sequence[ops.Op]) -> None:
            await self._write(batch, replaying=True)

        try:
            copied = await replay(self._fallback, write)
        except Exception as exc:
            log.info("database still unavailable (%r); fallback kept", exc)
            self._set_degraded(exc)
            return
        self._copied, self._degraded = 0, False
        log.warning("database available: %d operations replayed from %s", copied,
                    self._fallback.path)

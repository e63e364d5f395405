"""The durable log of everything a room does, with group commit and a local fallback.

    journal = Journal(engine, "data/journal.fallback")
    await journal.start()          # replays a leftover fallback file first
    await journal.record(code, seq, seat, action)   # returns once durable
    ...
    await journal.stop()

Every write (room created, seats, start, action, finish, abandon) goes through one queue
and one writer task, so they reach the database in the order they were handed over.
Writes that arrive while the writer is busy or within `max_wait` seconds share one
transaction. While the database is unreachable, batches are appended (and fsync'ed) to
the fallback file instead and `degraded` is True; a prober notices when the database is
back and the writer copies the file in, in order, before anything newer.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession

from . import ops
from .fallback import FallbackFile, is_unavailable, replay
from .models import utcnow
from .records import ActionRecord, FinishedGame, NewRoom, SeatRecord

log = logging.getLogger(__name__)


class _Item:
    __slots__ = ("op", "line", "done")

    def __init__(self, op: ops.Op, done: asyncio.Future[None]) -> None:
        self.op, self.line, self.done = op, ops.encode(op), done

    def resolve(self, error: BaseException | None = None) -> None:
        if self.done.done():  # the caller stopped waiting; the write still happened
            return
        if error is None:
            self.done.set_result(None)
        else:
            self.done.set_exception(error)


class Journal:
    def __init__(
        self,
        engine: AsyncEngine,
        fallback_path: str | os.PathLike[str],
        *,
        max_wait: float = 0.003,
        max_batch: int = 128,
        retry_interval: float = 1.0,
        write_timeout: float = 10.0,
        clock: Callable[[], datetime] = utcnow,
    ) -> None:
        self._engine = engine
        self._file = FallbackFile(fallback_path)
        self._max_wait, self._max_batch = max_wait, max_batch
        self._retry_interval, self._write_timeout = retry_interval, write_timeout
        self._clock = clock
        self._pending: list[_Item] = []
        self._wake = asyncio.Event()
        self._full = asyncio.Event()
        self._writer: asyncio.Task[None] | None = None
        self._prober: asyncio.Task[None] | None = None
        self._db_back = False
        self._stopping = False
        self._degraded = False
        # code -> id of the rooms known unfinished: this journal is the only writer of room
        # statuses, so a batch of actions need not look its rooms up again.
        self._open_rooms: dict[str, int] = {}
        # Told (batch size, seconds) after each committed batch, e.g. by the metrics.
        self.on_commit: Callable[[int, float], None] | None = None
        self._conn: AsyncConnection | None = None

    @property
    def degraded(self) -> bool:
        """True while acknowledged writes sit in the fallback file instead of the database."""
        return self._degraded

    @property
    def fallback_path(self) -> os.PathLike[str]:
        return self._file.path

    # --- lifecycle -------------------------------------------------------------------

    async def start(self) -> None:
        """Copy a leftover fallback file into the database (if it is reachable), then start
        the writer. Call before loading unfinished rooms, so they include those writes."""
        if self._writer is not None:
            raise RuntimeError("journal already started")
        if self._file.pending():
            self._set_degraded(None)
            await self._drain()
        self._writer = asyncio.create_task(self._run(), name="journal-writer")

    async def stop(self) -> None:
        """Write everything handed over so far, try a last copy of the fallback file, stop."""
        if self._writer is None or self._stopping:
            return
        self._stopping = True
        self._wake.set()
        self._full.set()
        await asyncio.wait([self._writer])  # a crashed writer was logged already
        if self._prober is not None:
            self._prober.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._prober
        if self._degraded:
            await self._drain()
        await self._close_connection()

    # --- what the rooms call ---------------------------------------------------------

    async def record(
        self, room_code: str, seq: int, seat: int | None, action: dict[str, Any],
        at: datetime | None = None,
    ) -> None:
        """Journal one accepted action; returns once it is committed (or fsync'ed to the
        fallback file). Raises if it cannot be made durable: then it must not be applied."""
        await self._submit(ops.action(
            ActionRecord(room_code, seq, seat, action, at or self._clock())
        ))

    async def room_created(self, room: NewRoom) -> None:
        await self._submit(ops.room_created(room))

    async def seats_changed(
        self, code: str, seats: Sequence[SeatRecord], host_seat: int | None = None
    ) -> None:
        await self._submit(ops.seats_changed(code, seats, host_seat))

    async def room_started(
        self, code: str, *, options: dict[str, Any], seed: int, at: datetime | None = None
    ) -> None:
        await self._submit(ops.room_started(code, options, seed, at or self._clock()))

    async def game_finished(self, game: FinishedGame) -> None:
        await self._submit(ops.game_finished(game))

    async def room_abandoned(self, code: str, at: datetime | None = None) -> None:
        await self._submit(ops.room_abandoned(code, at or self._clock()))

    async def _submit(self, op: ops.Op) -> None:
        if self._writer is None or self._stopping or self._writer.done():
            raise RuntimeError("the journal is not running")
        item = _Item(op, asyncio.get_running_loop().create_future())
        self._pending.append(item)
        if len(self._pending) >= self._max_batch:
            self._full.set()
        self._wake.set()
        await asyncio.shield(item.done)

    # --- the writer ------------------------------------------------------------------

    async def _run(self) -> None:
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                if self._db_back:
                    self._db_back = False
                    if self._degraded:
                        await self._drain()
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
            if is_unavailable(exc):
                self._set_degraded(exc)
                await self._to_file(batch)
            elif len(batch) > 1:  # one bad write must not sink the others in its batch
                for item in batch:
                    await self._flush([item])
            else:
                batch[0].resolve(exc)
        else:
            if self.on_commit is not None:
                self.on_commit(len(batch), time.perf_counter() - started)
            for item in batch:
                item.resolve()

    async def _write(self, batch: Sequence[ops.Op], *, replaying: bool) -> None:
        """One transaction on the writer's own connection, kept between batches (a pool
        checkout would ping and reset it each time). It is dropped on any failure; one that
        died while idle (a database restart) gets a second try on a fresh connection."""
        kept = self._conn is not None
        try:
            await self._transaction(batch, replaying)
        except Exception as exc:
            if not (kept and getattr(exc, "connection_invalidated", False)):
                raise
            log.info("journal connection lost (%r); writing on a new one", exc)
            await self._transaction(batch, replaying)

    async def _transaction(self, batch: Sequence[ops.Op], replaying: bool) -> None:
        try:
            async with asyncio.timeout(self._write_timeout):
                if self._conn is None:
                    self._conn = await self._engine.connect()
                async with self._conn.begin(), AsyncSession(bind=self._conn) as session:
                    await ops.apply_ops(
                        session, batch, replaying=replaying, open_rooms=self._open_rooms
                    )
                    await session.flush()
        except BaseException:
            # Ids cached inside a transaction that did not commit may name no room.
            self._open_rooms.clear()
            await self._close_connection()
            raise

    async def _close_connection(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close()

    async def _to_file(self, batch: list[_Item]) -> None:
        try:
            await asyncio.to_thread(self._file.append, [item.line for item in batch])
        except OSError as exc:
            log.error("fallback file %s unwritable, %d writes refused: %r",
                      self._file.path, len(batch), exc)
            for item in batch:
                item.resolve(exc)
        else:
            for item in batch:
                item.resolve()

    # --- outage and recovery ---------------------------------------------------------

    def _set_degraded(self, exc: BaseException | None) -> None:
        if not self._degraded:
            self._degraded = True
            log.warning("database unavailable (%r): journaling to %s", exc, self._file.path)
        self._start_prober()

    async def _drain(self) -> None:
        async def write(batch: Sequence[ops.Op]) -> None:
            await self._write(batch, replaying=True)

        try:
            copied = await replay(self._file, write)
        except Exception as exc:
            log.info("database still unavailable (%r); fallback kept", exc)
            self._start_prober()
            return
        if self._prober is not None:
            self._prober.cancel()
        self._degraded = False
        log.warning("database available: %d operations replayed from %s", copied, self._file.path)

    def _start_prober(self) -> None:
        if not self._stopping and (self._prober is None or self._prober.done()):
            self._prober = asyncio.create_task(self._probe(), name="journal-prober")

    async def _probe(self) -> None:
        """Poll the database cheaply; when it answers, hand the copy-back to the writer."""
        while True:
            await asyncio.sleep(self._retry_interval)
            try:
                async with asyncio.timeout(self._write_timeout), self._engine.connect() as c:
                    await c.execute(text("SELECT 1"))
            except Exception as exc:
                log.debug("database probe failed: %r", exc)
                continue
            self._db_back = True
            self._wake.set()
            return

"""One server per data: the first step of start-up, before anything is read or written.

A second server on the same fallback file would copy it into the database and empty it
while the first is still appending to it (acknowledged actions lost), and a second one
on the same database would restore the same rooms and write the same journals. So the
server takes, before migrating, recovering or copying anything back:

- an exclusive OS lock (flock) on `<fallback file>.lock`, next to the fallback file;
- with SQLite, the same on `<database file>.lock`;
- with PostgreSQL, a session-level advisory lock held on a connection of its own for the
  server's life (single-server mode only: cluster instances share one database by design),
  taken again whenever that connection drops, or the server stops if another has it.

The OS releases the file locks when the process dies, PostgreSQL the advisory lock when
its connection drops, so a crashed server never blocks the next start. A lock already
held is LockHeld, with a one-line cause naming the holder when it can. File locks are
taken on the real path of each file, so a symlink cannot lead a second server past them.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
import sys
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine
from sqlalchemy.pool import NullPool

from server.db.session import make_engine

log = logging.getLogger(__name__)

# pg_try_advisory_lock(key): one 64-bit key for "the journal of a single server".
JOURNAL_LOCK_KEY = 0x436F_6666_6565_5275  # "CoffeeRu"
# Who holds it in this database (pg_locks lists the advisory locks of every database).
HOLDER = ("SELECT a.pid, a.application_name FROM pg_locks l JOIN pg_stat_activity a "
          "ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 "
          "AND ((l.classid::bigint << 32) | l.objid::bigint) = :k "
          "AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())")
CHECK_INTERVAL = 2.0  # seconds between two checks of a lock connection that said nothing
RETRY_FIRST = 0.1  # seconds before the first retry of a lost lock, doubling up to the above
LOST = 3  # the exit status of a server that lost its lock, as of one refused at start-up


class LockHeld(Exception):
    """Another server holds it, or it cannot be taken (a read-only data directory); the
    message is one line."""


class FileLock:
    """flock(LOCK_EX | LOCK_NB) on a file, which records the holder's pid for the message."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None

    def acquire(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:  # a read-only data directory: refused now, not write by write
            raise LockHeld(f"cannot write in {self.path.parent}: "
                           f"{exc.strerror or exc}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 64, 0).decode(errors="replace").strip()
            os.close(fd)
            by = f" (pid {holder})" if holder.isdigit() else ""
            raise LockHeld(f"another server{by} is using {self.path.parent}: "
                           f"{self.path} is locked") from None
        except BaseException:
            os.close(fd)
            raise
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._fd = fd

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)  # closing drops the flock


class DatabaseLock:
    """A PostgreSQL session-level advisory lock on a connection kept for the server's life;
    the connection's application_name says which server holds it.

    The lock lives as long as that connection, which a database restart, a failover or an
    administrator can end while the server goes on: so a watch task notices at once (the
    driver's termination callback) or within CHECK_INTERVAL (a connection that went silent),
    and takes the lock again on a new connection. If another server took it meanwhile,
    `on_lost` is told why in one line (by default the process stops at once: anything it
    wrote from then on would land beside the other server's journal)."""

    def __init__(self, url: str, timeout: float, holder: str,
                 on_lost: Callable[[str], object] | None = None) -> None:
        self.url = url
        self.timeout = timeout
        self.holder = holder
        self.on_lost = on_lost or stop_serving
        self._engine: AsyncEngine | None = None
        self._conn: AsyncConnection | None = None
        self._pid: int | None = None  # the backend holding the lock for us
        self._dropped: asyncio.Event | None = None
        self._watch: asyncio.Task[None] | None = None

    async def acquire(self) -> None:
        holder = await self._take()
        if holder is not None:
            await self._close()
            raise LockHeld(held_by(holder))
        self._watch = asyncio.create_task(self._keep(), name="database-lock")

    async def release(self) -> None:
        watch, self._watch = self._watch, None
        if watch is not None:
            watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watch
        await self._close()

    async def _take(self) -> str | None:
        """Connect and try the lock: None once we hold it, else who holds it ("" when that
        cannot be told). Connection errors are raised."""
        await self._close()
        self._engine = make_engine(self.url, poolclass=NullPool, connect_args={
            "timeout": self.timeout,
            "server_settings": {"application_name": f"coffee-rush {self.holder}"[:63]}})
        conn = self._conn = await self._engine.connect()
        dropped = self._dropped = asyncio.Event()
        raw = (await conn.get_raw_connection()).driver_connection
        if raw is not None:
            raw.add_termination_listener(lambda _: dropped.set())
        got, pid = (await conn.execute(text(
            "SELECT pg_try_advisory_lock(:k), pg_backend_pid()"), {"k": JOURNAL_LOCK_KEY})).one()
        await conn.commit()
        if got:
            self._pid = pid
            return None
        holder = ""
        with contextlib.suppress(Exception):
            row = (await conn.execute(text(HOLDER), {"k": JOURNAL_LOCK_KEY})).first()
            if row is not None:
                if row.pid == self._pid:  # our own old backend, not yet gone: end it
                    await conn.execute(text("SELECT pg_terminate_backend(:p, :ms)"),
                                       {"p": row.pid, "ms": int(self.timeout * 1000)})
                    await conn.commit()
                    return await self._take()
                holder = row.application_name or ""
        return holder

    async def _keep(self) -> None:
        """Watch the lock's connection; when it drops, take the lock again or stop."""
        while True:
            assert self._dropped is not None
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._dropped.wait(), CHECK_INTERVAL)
            if not self._dropped.is_set() and await self._alive():
                continue
            log.warning("the connection holding the journal lock dropped; taking it again")
            holder = await self._retake()
            if holder is None:
                log.warning("journal lock taken again")
                continue
            self.on_lost(held_by(holder))
            return

    async def _alive(self) -> bool:
        try:
            assert self._conn is not None
            async with asyncio.timeout(self.timeout):
                await self._conn.execute(text("SELECT 1"))
                await self._conn.commit()
        except Exception:
            return False
        return True

    async def _retake(self) -> str | None:
        """Until the database answers: None when the lock is ours again, else its holder."""
        wait = RETRY_FIRST
        while True:
            try:
                return await self._take()
            except Exception as exc:  # down (restarting, failing over): try again soon
                log.debug("journal lock not taken yet: %r", exc)
            await asyncio.sleep(wait)
            wait = min(wait * 2, CHECK_INTERVAL)

    async def _close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close()
        engine, self._engine = self._engine, None
        if engine is not None:
            with contextlib.suppress(Exception):
                await engine.dispose()


def held_by(holder: str) -> str:
    by = f" ({holder})" if holder else ""
    return (f"another server{by} holds the journal of this database "
            "(one server per database outside cluster mode)")


def stop_serving(message: str) -> None:
    """The lock was lost to another server: stop now, without a graceful shutdown (which
    would write queued actions and clocks into the other server's database). What was
    acknowledged is in the database already."""
    log.critical("journal lock lost: %s", message)
    sys.stderr.write(f"coffee-rush: stopped: {message}\n")
    sys.stderr.flush()
    os._exit(LOST)


def is_postgresql(url: str) -> bool:
    return make_url(url).get_backend_name() == "postgresql"

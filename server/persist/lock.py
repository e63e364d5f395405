"""One server per data: the first step of start-up, before anything is read or written.

A second server on the same fallback file would copy it into the database and empty it
while the first is still appending to it (acknowledged actions lost), and a second one
on the same database would restore the same rooms and write the same journals. So the
server takes, before migrating, recovering or copying anything back:

- an exclusive OS lock (flock) on `<fallback file>.lock`, next to the fallback file;
- with SQLite, the same on `<database file>.lock`;
- with PostgreSQL, a session-level advisory lock held on a connection of its own for the
  server's life (single-server mode only: cluster instances share one database by design).

The OS releases the file locks when the process dies, PostgreSQL the advisory lock when
its connection drops, so a crashed server never blocks the next start. A lock already
held is ServerLock.Held, with a one-line cause naming the holder when it can.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine
from sqlalchemy.pool import NullPool

from server.db.session import make_engine

# pg_try_advisory_lock(key): one 64-bit key for "the journal of a single server".
JOURNAL_LOCK_KEY = 0x436F_6666_6565_5275  # "CoffeeRu"


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
    the connection's application_name says which server holds it."""

    def __init__(self, url: str, timeout: float, holder: str) -> None:
        self.url = url
        self.timeout = timeout
        self.holder = holder
        self._engine: AsyncEngine | None = None
        self._conn: AsyncConnection | None = None

    async def acquire(self) -> None:
        self._engine = make_engine(self.url, poolclass=NullPool, connect_args={
            "timeout": self.timeout,
            "server_settings": {"application_name": f"coffee-rush {self.holder}"[:63]}})
        conn = self._conn = await self._engine.connect()
        got = (await conn.execute(text("SELECT pg_try_advisory_lock(:k)"),
                                  {"k": JOURNAL_LOCK_KEY})).scalar()
        await conn.commit()
        if got:
            return
        holder = None
        with contextlib.suppress(Exception):
            holder = (await conn.execute(text(
                "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a "
                "ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.granted "
                "AND l.objsubid = 1 AND ((l.classid::bigint << 32) | l.objid::bigint) = :k"),
                {"k": JOURNAL_LOCK_KEY})).scalar()
        await self.release()
        by = f" ({holder})" if holder else ""
        raise LockHeld(f"another server{by} holds the journal of this database "
                       "(one server per database outside cluster mode)")

    async def release(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close()
        engine, self._engine = self._engine, None
        if engine is not None:
            await engine.dispose()


def is_postgresql(url: str) -> bool:
    return make_url(url).get_backend_name() == "postgresql"

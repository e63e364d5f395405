"""The database as the server uses it: migrated at start-up, one journal, clean shutdown.

    database = Database(settings)
    stored = await database.open()     # migrate, start the journal, load the rooms to restore
    database.journal.degraded           # True while writes go to the fallback file
    database.sessions                   # for read queries (history, replays)
    await database.close()

Start-up fails if the database cannot be reached: the unfinished rooms could not be
restored, and a room created meanwhile might take the code of one of them. Refusals
(unreachable, not ours, a fallback file it cannot take back) raise DatabaseRefused with
a one-line cause; `python -m server` prints it and exits. So does a second server on the
same fallback file or database (server.persist.lock), before it touches either.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

from alembic.util.exc import CommandError
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from server.config import Settings
from server.db import store
from server.db.journal import Journal as DbJournal
from server.db.migrate import DatabaseRefused, upgrade_async, where
from server.db.models import utcnow
from server.db.records import UnfinishedRoom
from server.db.session import make_engine, session_factory, sqlite_path
from server.db.sqlite_reader import SqliteReader

from .lock import DatabaseLock, FileLock, LockHeld, is_postgresql

log = logging.getLogger(__name__)


class Database:
    def __init__(
        self, settings: Settings, fence: Callable[[str], int | None] | None = None
    ) -> None:
        self.url = settings.DATABASE_URL
        self.finished_ttl = settings.FINISHED_ROOM_TTL
        # Cluster mode keeps no local fallback: another instance may take a room over at any
        # time, and only what is in the shared database can follow it there.
        self.fallback_path = None if settings.cluster else Path(settings.JOURNAL_FALLBACK_PATH)
        self.fence = fence
        self.timeout = settings.DB_TIMEOUT
        self._locks = self._one_server_locks(settings)
        self._db_lock = (None if settings.cluster or not is_postgresql(self.url)
                         else DatabaseLock(self.url, self.timeout, settings.instance))
        self._engine: AsyncEngine | None = None
        self._sessions: async_sessionmaker[AsyncSession] | None = None
        self._journal: DbJournal | None = None
        self._reader: SqliteReader | None = None

    @property
    def journal(self) -> DbJournal:
        if self._journal is None:
            raise RuntimeError("the database is not open")
        return self._journal

    @property
    def sessions(self) -> async_sessionmaker[AsyncSession]:
        if self._sessions is None:
            raise RuntimeError("the database is not open")
        return self._sessions

    @property
    def engine(self) -> AsyncEngine:
        """For a single read on a plain connection (no ORM session around it)."""
        if self._engine is None:
            raise RuntimeError("the database is not open")
        return self._engine

    @property
    def reader(self) -> SqliteReader | None:
        """On SQLite, single reads in one trip to a thread (server.db.sqlite_reader); on
        PostgreSQL, None: read on `engine`."""
        return self._reader

    @property
    def degraded(self) -> bool:
        return self._journal is not None and self._journal.degraded

    async def open(self) -> list[UnfinishedRoom]:
        """Migrate, start the journal (which first copies in a leftover fallback file) and
        return the rooms to restore: the unfinished ones, and those finished less than
        FINISHED_ROOM_TTL ago (still on show). Raises DatabaseRefused when the database
        cannot be used (unreachable, refusing us, not ours); other errors are bugs."""
        try:
            await self._lock()
            return await self._open()
        except LockHeld as exc:
            raise DatabaseRefused(str(exc)) from None
        except DatabaseRefused:
            raise
        except (SQLAlchemyError, OSError, TimeoutError, CommandError) as exc:
            raise DatabaseRefused(f"cannot use the database at {where(self.url)}: "
                                  f"{cause(exc)}") from exc

    def _one_server_locks(self, settings: Settings) -> list[FileLock]:
        files = [] if self.fallback_path is None else [self.fallback_path]
        if (database := sqlite_path(self.url)) is not None:
            files.append(database)
        # On the real path: another name for the same file (a symlink, a symlinked
        # directory) must find the same lock.
        real = [Path(os.path.realpath(f)) for f in files]
        return [FileLock(f.with_name(f.name + ".lock")) for f in real]

    async def _lock(self) -> None:
        """One server per fallback file and database: taken before anything is touched."""
        for lock in self._locks:
            lock.acquire()
        if self._db_lock is not None:
            await self._db_lock.acquire()

    async def _open(self) -> list[UnfinishedRoom]:
        if self.fallback_path is not None:
            self.fallback_path.parent.mkdir(parents=True, exist_ok=True)
        await upgrade_async(self.url)
        self._engine = make_engine(
            self.url, connect_timeout=self.timeout, statement_timeout=self.timeout
        )
        self._sessions = session_factory(self._engine)
        if (path := sqlite_path(self.url)) is not None:
            self._reader = SqliteReader(path, busy_timeout=self.timeout)
        self._journal = DbJournal(
            self._engine, self.fallback_path, fence=self.fence, write_timeout=self.timeout
        )
        await self._journal.start()
        if self._journal.degraded:
            # The fallback file could not be copied in, so the database is missing writes.
            raise DatabaseRefused(
                f"the database at {where(self.url)} went away while the writes kept in "
                f"{self.fallback_path} were copied in; they are kept for the next start"
            )
        since = utcnow() - timedelta(seconds=self.finished_ttl)
        async with self._sessions() as session:
            return [*await store.load_unfinished_rooms(session),
                    *await store.load_finished_rooms(session, since)]

    async def close(self) -> None:
        """Write what is queued (or keep it in the fallback file) and release connections."""
        if self._journal is not None:
            await self._journal.stop()
        if self._reader is not None:
            await self._reader.close()
            self._reader = None
        if self._engine is not None:
            await self._engine.dispose()
        if self._db_lock is not None:
            await self._db_lock.release()
        for lock in self._locks:
            lock.release()


def cause(exc: BaseException) -> str:
    """The innermost error's message on one line (a driver's, not SQLAlchemy's wrapper)."""
    inner = getattr(exc, "orig", None) or exc.__cause__ or exc
    text = " ".join(str(inner).split()) or type(inner).__name__
    return text[:300]

"""Journal rows inserted the short way: the live writer's batches of actions.

Through the ORM session a batch of actions costs a statement compilation lookup, a cursor,
RETURNING rows, and with aiosqlite every step (begin, insert, commit) is a trip to the
driver's thread that waits a turn of a busy event loop. The short ways:

- `SqliteBatches`: on SQLite, a batch of actions only (rooms known unfinished) is one
  transaction in **one** trip to a thread of its own, on a connection of its own: begin,
  `executemany`, commit. With several trips, each waiting a turn of a busy event loop, the
  write deadline (DB_TIMEOUT) could pass on a healthy disk and send the server to its
  fallback file under load.
- `insert_unnest`: on PostgreSQL, inside the caller's transaction, one statement over
  arrays (`INSERT ... SELECT FROM unnest(...)`) instead of one per row.

Values go through the columns' own bind processors, so rows are stored exactly as the ORM
would store them. Only the case without surprises goes this way: every row new. When a row
was already there (a replay, a retried batch) the caller is told, and takes the ORM path,
which checks that those rows are identical.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncConnection

from .models import JournalEntry

COLUMNS = ("room_id", "seq", "seat", "action", "created_at")
SQLITE_SQL = (f"INSERT INTO journal ({', '.join(COLUMNS)}) "
              f"VALUES ({', '.join('?' * len(COLUMNS))}) ON CONFLICT (room_id, seq) DO NOTHING")
PG_SQL = (f"INSERT INTO journal ({', '.join(COLUMNS)}) "
          "SELECT * FROM unnest($1::integer[], $2::integer[], $3::integer[], $4::json[], "
          "$5::timestamptz[]) ON CONFLICT (room_id, seq) DO NOTHING RETURNING 1")


def rows(dialect: Dialect, values: Sequence[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """The rows (dicts keyed by COLUMNS) as the driver takes them: through the columns'
    bind processors, as the ORM would send them."""
    table = JournalEntry.__table__
    processors = [table.c[name].type.dialect_impl(dialect).bind_processor(dialect)
                  for name in COLUMNS]
    return [
        tuple(value[name] if p is None else p(value[name])
              for name, p in zip(COLUMNS, processors, strict=True))
        for value in values
    ]


def unnest_applies(connection: AsyncConnection) -> bool:
    return connection.dialect.name == "postgresql" and connection.dialect.driver == "asyncpg"


async def insert_unnest(connection: AsyncConnection, values: Sequence[dict[str, Any]]) -> bool:
    """PostgreSQL: insert the rows in the caller's transaction; True if every one was new."""
    columns = list(zip(*rows(connection.dialect, values), strict=True))
    result = await connection.exec_driver_sql(PG_SQL, tuple(list(c) for c in columns))
    return len(result.all()) == len(values)


class SqliteBatches:
    """One SQLite connection on one thread of its own, for the live writer's batches."""

    def __init__(self, path: Path, busy_timeout: float) -> None:
        self.path = path
        self.busy_timeout = busy_timeout
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="journal-sqlite")
        self._conn: sqlite3.Connection | None = None  # used on that thread only

    async def insert(self, batch: list[tuple[Any, ...]], timeout: float) -> bool:
        """Insert and commit the rows (driver values, in COLUMNS order) in one transaction;
        True if every one was new (else nothing was written). TimeoutError after `timeout`
        seconds; the transaction then still ends, committed or rolled back, on its thread.
        One trip: a busy event loop delays only the news of the commit, not the commit."""
        future = asyncio.get_running_loop().run_in_executor(
            self._thread, self._transaction, batch)
        done, _ = await asyncio.wait({future}, timeout=timeout)
        if not done:
            future.add_done_callback(_forget)
            raise TimeoutError(f"SQLite did not commit within {timeout}s")
        return future.result()

    def _transaction(self, batch: list[tuple[Any, ...]]) -> bool:
        conn = self._connection()
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                inserted = conn.executemany(SQLITE_SQL, batch).rowcount
                if inserted != len(batch):
                    conn.rollback()
                    return False
                conn.commit()
            except BaseException:
                conn.rollback()
                raise
        except sqlite3.Error:
            self._drop()  # a connection that failed is not trusted with the next batch
            raise
        return True

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            conn = sqlite3.connect(self.path, timeout=self.busy_timeout,
                                   isolation_level=None, check_same_thread=False)
            # As the engine's connections (server/db/session.py): FULL, so that an
            # acknowledged action survives a power loss too.
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            self._conn = conn
        return self._conn

    def _drop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()

    async def close(self) -> None:
        await asyncio.get_running_loop().run_in_executor(self._thread, self._drop)
        self._thread.shutdown(wait=False)


def _forget(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()  # retrieved: a late failure is not reported as unhandled

"""Single reads on SQLite, each one trip to a thread of its own.

Through aiosqlite a read is a trip to the driver's thread and back for each step (the
connection from the pool, the cursor, the statement, the fetch, the cursor's close, the
rollback that returns the connection), and each trip hands the interpreter's lock to that
thread and waits for a turn of the event loop to come back. A guest's name check at every
join (one statement) cost the event loop about seven such trips (issue 42). Here the
whole read runs on the reader's thread on a plain sqlite3 connection, kept open between
reads: the loop hands it over once and hears back once. The read runs the same code as on
PostgreSQL, written against AsyncConnection, through the facade the SQLite writer uses.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar, cast

from sqlalchemy import Connection
from sqlalchemy.ext.asyncio import AsyncConnection

from .sqlite_writer import ConnectionFacade, run_to_end, thread_engine

T = TypeVar("T")


class SqliteReader:
    def __init__(self, path: Path, busy_timeout: float) -> None:
        self.engine = thread_engine(path, busy_timeout)
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="reads-sqlite")
        self._conn: Connection | None = None  # the reader's, kept between reads

    async def read(self, question: Callable[[AsyncConnection], Coroutine[Any, Any, T]]) -> T:
        """`question`'s answer, asked on the reader's connection in a transaction of its
        own. `question` may await only the connection's `execute` and `scalar`."""
        return await asyncio.get_running_loop().run_in_executor(self._thread, self._read,
                                                                 question)

    async def close(self) -> None:
        await asyncio.get_running_loop().run_in_executor(self._thread, self._drop)
        self._thread.shutdown(wait=False)
        self.engine.dispose()

    # --- on the thread ---------------------------------------------------------------

    def _read(self, question: Callable[[AsyncConnection], Coroutine[Any, Any, T]]) -> T:
        if self._conn is None:
            self._conn = self.engine.connect()
        conn = self._conn
        try:
            return run_to_end(question(cast(AsyncConnection, ConnectionFacade(conn))))
        except BaseException:
            self._drop()
            raise
        finally:
            if self._conn is not None:
                # Ends the read transaction: a reader that held one would keep the WAL
                # from being checkpointed.
                conn.rollback()

    def _drop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()

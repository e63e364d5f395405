"""The journal's transactions on SQLite: each one is a single trip to a thread of its own.

Through aiosqlite every statement of a transaction (each insert, select, the commit) is a
trip to the driver's thread and back, and each "back" waits for a turn of the event loop.
On a busy server (a thousand tables opening at once) a transaction of a few hundred
statements then took longer than DB_TIMEOUT on a healthy disk, and the server went to its
fallback file. Here the whole transaction runs on the writer's own thread, on a plain
sqlite3 connection under a synchronous SQLAlchemy session: the event loop hands a batch
over once and hears back once, whatever the batch holds.

The live writer's common operations (a room created, seated, started, its actions, its
game finished) go the short way, prepared statements on the driver connection
(server.db.sqlite_short). Everything else, replays and surprises, is applied by the same
code as on PostgreSQL (`ops.apply_ops` and the store), in the same transaction. That code
is written against AsyncSession: `SessionFacade` gives it that face over the synchronous
session, and `run_to_end` runs the coroutine, which never really waits.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Coroutine, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar, cast

from sqlalchemy import Connection, Engine, Result, create_engine, event
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session
from sqlalchemy.pool import NullPool

from server.jsontext import dumps

from . import ops, store
from .session import sqlite_pragmas
from .sqlite_short import SqliteShortWay

T = TypeVar("T")


def thread_engine(path: Path, busy_timeout: float) -> Engine:
    """A synchronous engine on the SQLite file, for a thread of its own (the writer's, the
    reader's): no pool, the same pragmas and JSON text as make_engine's."""
    engine = create_engine(f"sqlite:///{path}", poolclass=NullPool,
                           connect_args={"timeout": busy_timeout}, json_serializer=dumps)
    event.listen(engine, "connect", sqlite_pragmas)
    return engine


class SqliteWriter:
    def __init__(self, path: Path, busy_timeout: float) -> None:
        self.engine = thread_engine(path, busy_timeout)
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="journal-sqlite")
        self._conn: Connection | None = None  # the writer's, kept between batches
        self._short = SqliteShortWay(self.engine.dialect)

    async def write(self, batch: Sequence[ops.Op], *, replaying: bool,
                    open_rooms: dict[str, int], timeout: float) -> None:
        """One transaction on the writer's connection (see `Journal._write`)."""
        await self._call(timeout, self._write, batch, replaying, open_rooms)

    async def write_apart(self, batch: Sequence[ops.Op], timeout: float) -> None:
        """One transaction on a connection of its own (the copy-back's); with no operations,
        a probe that needs the write lock."""
        await self._call(timeout, self._write_apart, batch)

    async def close(self) -> None:
        await asyncio.get_running_loop().run_in_executor(self._thread, self._drop)
        self._thread.shutdown(wait=False)
        self.engine.dispose()

    async def _call(self, timeout: float, work: Any, *args: Any) -> None:
        """Run `work` on the thread; TimeoutError after `timeout` seconds (the transaction
        then still ends on its thread, committed or rolled back)."""
        future = asyncio.get_running_loop().run_in_executor(self._thread, work, *args)
        done, _ = await asyncio.wait({future}, timeout=timeout)
        if not done:
            future.add_done_callback(_forget)
            raise TimeoutError(f"SQLite did not commit within {timeout}s")
        future.result()

    # --- on the thread ---------------------------------------------------------------

    def _write(self, batch: Sequence[ops.Op], replaying: bool,
               open_rooms: dict[str, int]) -> None:
        if self._conn is None:
            self._conn = self.engine.connect()
        try:
            conn = self._conn
            with conn.begin():
                if replaying or any("epoch" in op for op in batch):
                    _apply(conn, batch, replaying, open_rooms)
                    return
                db = cast(sqlite3.Connection, conn.connection.driver_connection)
                self._short.write(db, batch, open_rooms,
                                  lambda part: _apply(conn, part, False, open_rooms))
        except BaseException:
            open_rooms.clear()  # ids cached in a transaction that did not commit
            self._drop()
            raise

    def _write_apart(self, batch: Sequence[ops.Op]) -> None:
        with self.engine.connect() as conn, conn.begin():
            if batch:
                _apply(conn, batch, True, None)
            else:
                conn.exec_driver_sql(store.WRITE_PROBE)

    def _drop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()


def _apply(conn: Connection, batch: Sequence[ops.Op], replaying: bool,
           open_rooms: dict[str, int] | None) -> None:
    with Session(bind=conn) as session:
        facade = cast(AsyncSession, SessionFacade(session))
        run_to_end(ops.apply_ops(facade, batch, replaying=replaying, open_rooms=open_rooms))
        session.flush()


class SessionFacade:
    """What the store uses of an AsyncSession, over a synchronous Session: every await
    returns at once."""

    def __init__(self, session: Session) -> None:
        self._session = session

    def get_bind(self) -> Any:
        return self._session.get_bind()

    def add_all(self, instances: Any) -> None:
        self._session.add_all(instances)

    async def execute(self, *args: Any, **kwargs: Any) -> Result[Any]:
        return self._session.execute(*args, **kwargs)

    async def scalar(self, *args: Any, **kwargs: Any) -> Any:
        return self._session.scalar(*args, **kwargs)

    async def scalars(self, *args: Any, **kwargs: Any) -> Any:
        return self._session.scalars(*args, **kwargs)

    async def flush(self) -> None:
        self._session.flush()

    async def connection(self) -> ConnectionFacade:
        return ConnectionFacade(self._session.connection())


class ConnectionFacade:
    def __init__(self, connection: Connection) -> None:
        self._connection = connection
        self.dialect = connection.dialect

    async def execute(self, *args: Any, **kwargs: Any) -> Result[Any]:
        return self._connection.execute(*args, **kwargs)

    async def scalar(self, *args: Any, **kwargs: Any) -> Any:
        return self._connection.scalar(*args, **kwargs)


def run_to_end(coro: Coroutine[Any, Any, T]) -> T:
    """The result of a coroutine that never waits (it only awaits a facade above)."""
    try:
        coro.send(None)
    except StopIteration as done:
        return cast(T, done.value)
    coro.close()
    raise RuntimeError("a write or read waited on something other than its connection")


def _forget(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()  # retrieved: a late failure is not reported as unhandled

"""The journal's transactions on PostgreSQL (or any engine but SQLite): on the event loop,
through SQLAlchemy's async engine, on one connection kept between batches (a pool
checkout would ping and reset it each time). Every transaction has a hard deadline.

The operations are applied by `ops.apply_ops` and the store; runs of actions take the
store's short way there (one `unnest` insert, server.db.rawinsert).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine, Sequence
from typing import Any, TypeVar

from sqlalchemy import Engine, text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession

from . import ops, store

log = logging.getLogger(__name__)

T = TypeVar("T")

# How long closing a connection may take before it is dropped instead (a peer that does
# not answer any more, e.g. a network partition, would never acknowledge the goodbye).
CLOSE_TIMEOUT = 0.25


class PostgresWriter:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._conn: AsyncConnection | None = None  # the writer's, kept between batches

    @property
    def engine(self) -> Engine:
        return self._engine.sync_engine

    async def write(self, batch: Sequence[ops.Op], *, replaying: bool,
                    open_rooms: dict[str, int], timeout: float) -> None:
        """One transaction on the writer's connection. It is dropped on any failure; one
        that died while idle (a database restart) gets a second try on a fresh one."""
        kept = self._conn is not None
        try:
            await self._transaction(batch, replaying, open_rooms, timeout)
        except Exception as exc:
            if not (kept and getattr(exc, "connection_invalidated", False)):
                raise
            log.info("journal connection lost (%r); writing on a new one", exc)
            await self._transaction(batch, replaying, open_rooms, timeout)

    async def write_apart(self, batch: Sequence[ops.Op], timeout: float) -> None:
        """One transaction on a connection of its own (the copy-back's); with no operations,
        a probe that needs a write."""
        async def work() -> None:
            conn = await self._engine.connect()
            try:
                async with conn.begin(), AsyncSession(bind=conn) as session:
                    if batch:
                        await ops.apply_ops(session, batch, replaying=True)
                    else:
                        await session.execute(text(store.WRITE_PROBE))
                    await session.flush()
            finally:
                await _close(conn)

        await _within(timeout, work())

    async def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            await _close(conn)

    async def _transaction(self, batch: Sequence[ops.Op], replaying: bool,
                           open_rooms: dict[str, int], timeout: float) -> None:
        conn, self._conn = self._conn, None  # given back only once the batch is committed

        async def work() -> AsyncConnection:
            c = conn if conn is not None else await self._engine.connect()
            try:
                async with c.begin(), AsyncSession(bind=c) as session:
                    await ops.apply_ops(session, batch, replaying=replaying,
                                        open_rooms=open_rooms)
                    await session.flush()
            except BaseException:
                await _close(c)
                raise
            return c

        try:
            self._conn = await _within(timeout, work())
        except BaseException:
            # Ids cached inside a transaction that did not commit may name no room.
            open_rooms.clear()
            raise


async def _within(timeout: float, work: Coroutine[Any, Any, T]) -> T:
    """`work`'s result, or TimeoutError after `timeout` seconds. Unlike asyncio.timeout, the
    deadline holds even when cancelling takes long (a driver rolling back over a network
    that stopped answering): the cancelled work finishes its clean-up in the background."""
    task = asyncio.ensure_future(work)
    try:
        done, _ = await asyncio.wait({task}, timeout=timeout)
    except BaseException:
        task.cancel()
        raise
    if task in done:
        return task.result()
    task.cancel()
    task.add_done_callback(_forget)
    raise TimeoutError(f"the database did not answer within {timeout}s")


def _forget(task: asyncio.Task[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.debug("abandoned database write ended with %r", task.exception())


async def _close(conn: AsyncConnection) -> None:
    """Close a connection; one whose peer is unreachable is dropped instead of waited on."""
    try:
        async with asyncio.timeout(CLOSE_TIMEOUT):
            await conn.close()
    except Exception:
        with contextlib.suppress(Exception):
            await conn.invalidate()

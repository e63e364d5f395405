"""Engines and sessions, built from a URL passed in (no import-time globals)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from server.jsontext import dumps


def sqlite_path(url: str | URL) -> Path | None:
    """The database file of a SQLite URL, or None (not SQLite, or in memory)."""
    u = make_url(url)
    if u.get_backend_name() != "sqlite" or u.database in (None, "", ":memory:"):
        return None
    return Path(u.database)


def make_engine(
    url: str | URL, *, connect_timeout: float = 5.0, statement_timeout: float | None = None,
    **kwargs: Any,
) -> AsyncEngine:
    """An async engine. SQLite: WAL, foreign keys on, parent directory created.

    `connect_timeout` bounds how long a write can hang on an unreachable database
    (asyncpg's connect timeout; SQLite's busy timeout on a file another process has
    locked), which is what lets the journal notice an outage and fall back to its local
    file. `statement_timeout` (PostgreSQL) bounds each statement, each lock wait and each
    pause of the client inside a transaction on the server; the journal's own deadline
    covers a network that stops answering.
    """
    u = make_url(url)
    path = sqlite_path(u)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
    if u.get_backend_name() == "sqlite":
        kwargs.setdefault("connect_args", {"timeout": connect_timeout})
        if "poolclass" not in kwargs and path is not None:
            kwargs.setdefault("pool_timeout", connect_timeout)
    elif u.get_driver_name() == "asyncpg":
        args: dict[str, Any] = {"timeout": connect_timeout}
        if statement_timeout is not None:
            ms = str(max(1, round(statement_timeout * 1000)))
            # idle_in_transaction: a process frozen mid-transaction (SIGSTOP, a VM pause)
            # would hold its row locks, e.g. a cluster owner's FOR SHARE on its rooms, for
            # the whole freeze; the server ends its session instead.
            args["server_settings"] = {"statement_timeout": ms, "lock_timeout": ms,
                                       "idle_in_transaction_session_timeout": ms}
        kwargs.setdefault("connect_args", args)
        if "poolclass" not in kwargs:
            kwargs.setdefault("pool_size", 5)
            kwargs.setdefault("max_overflow", 10)
            kwargs.setdefault("pool_recycle", 1800)
            kwargs.setdefault("pool_timeout", connect_timeout)
    # A connection to a server can drop while pooled: each checkout pings it first. A
    # SQLite connection is a file, open in this process: a ping is only one more round trip
    # through aiosqlite's thread (~0.1 ms of CPU on every read, e.g. each guest's name check
    # at a join, issue 42).
    kwargs.setdefault("pool_pre_ping", u.get_backend_name() != "sqlite")
    # JSON columns as compact orjson text, not through the json module (SQLAlchemy's
    # default): the SQLite writer's thread encodes every game and action holding the GIL.
    kwargs.setdefault("json_serializer", dumps)
    engine = create_async_engine(u, **kwargs)
    if u.get_backend_name() == "sqlite":
        event.listen(engine.sync_engine, "connect", sqlite_pragmas)
    return engine


def sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    # FULL, not WAL's usual NORMAL: an acknowledged action must survive a power loss too;
    # group commit is what keeps the fsyncs affordable.
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.close()


def session_factory(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)

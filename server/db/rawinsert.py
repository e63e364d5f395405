"""Journal rows inserted with one prepared statement on the raw driver connection (SQLite).

Through the ORM session, a batch of actions costs a statement compilation lookup, a cursor
and RETURNING rows, and with aiosqlite every one of those steps is a round trip to the
driver's thread, each waiting a turn of a busy event loop. Here the batch is one
`executemany` (one round trip), inside the caller's transaction; the commit is the other.
Values go through the columns' own bind processors, so rows are stored exactly as the ORM
would store them.

Only the live writer's batches take this path (replays, which the outage tests watch
through SQLAlchemy's events, keep the ORM path), and only the case without surprises:
every row new. When some row was already
there (a replay, a retried batch), `insert` says so and the caller takes the ORM path,
which checks that those rows are identical (this statement inserted the others already).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from .models import JournalEntry

COLUMNS = ("room_id", "seq", "seat", "action", "created_at")
SQL = (f"INSERT INTO journal ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))}) "
       "ON CONFLICT (room_id, seq) DO NOTHING")


def applies(connection: AsyncConnection) -> bool:
    """True on SQLite through aiosqlite (the other drivers take the ORM path)."""
    return connection.dialect.name == "sqlite" and connection.dialect.driver == "aiosqlite"


async def insert(connection: AsyncConnection, values: Sequence[dict[str, Any]]) -> bool:
    """Insert the rows (dicts keyed by COLUMNS); True if every one was new."""
    dialect = connection.dialect
    table = JournalEntry.__table__
    processors = [table.c[name].type.dialect_impl(dialect).bind_processor(dialect)
                  for name in COLUMNS]
    rows = [
        tuple(value[name] if p is None else p(value[name])
              for name, p in zip(COLUMNS, processors, strict=True))
        for value in values
    ]
    raw = await connection.get_raw_connection()
    driver = raw.driver_connection  # aiosqlite.Connection
    assert driver is not None
    cursor = await driver.executemany(SQL, rows)
    return cursor.rowcount == len(rows)

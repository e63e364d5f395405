"""Journal rows inserted the short way: the live writer's batches of actions.

Through the ORM a batch of actions costs a statement compilation lookup, a statement per
row and RETURNING rows. The short ways, inside the caller's transaction:

- SQLite (server.db.sqlite_writer): SQLITE_SQL, one statement over a JSON array of rows.
- PostgreSQL: `insert_unnest`, one statement over arrays (`INSERT ... SELECT FROM
  unnest(...)`).

Values go through the columns' own bind processors, so rows are stored exactly as the ORM
would store them. Only the case without surprises goes this way: every row new. When a row
was already there (a replay, a retried batch) the caller is told, and takes the ORM path,
which checks that those rows are identical.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import orjson
from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncConnection

from .models import JournalEntry

COLUMNS = ("room_id", "seq", "seat", "action", "created_at")
# One parameter, a JSON array of rows: SQLite steps the statement once. (An executemany
# steps it once per row, and the driver lets go of the GIL at each step; on a busy server
# the writer's thread then waited up to the interpreter's switch interval, 5 ms, per row.)
SQLITE_SQL = (f"INSERT INTO journal ({', '.join(COLUMNS)}) SELECT "
              + ", ".join(f"json_extract(value, '$[{i}]')" for i in range(len(COLUMNS)))
              + " FROM json_each(?) WHERE true ON CONFLICT (room_id, seq) DO NOTHING")
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


def json_rows(dialect: Dialect, values: Sequence[dict[str, Any]]) -> str:
    """The rows as SQLITE_SQL's one parameter."""
    return orjson.dumps(rows(dialect, values)).decode()


def unnest_applies(connection: AsyncConnection) -> bool:
    return connection.dialect.name == "postgresql" and connection.dialect.driver == "asyncpg"


async def insert_unnest(connection: AsyncConnection, values: Sequence[dict[str, Any]]) -> bool:
    """PostgreSQL: insert the rows in the caller's transaction; True if every one was new."""
    columns = list(zip(*rows(connection.dialect, values), strict=True))
    result = await connection.exec_driver_sql(PG_SQL, tuple(list(c) for c in columns))
    return len(result.all()) == len(values)

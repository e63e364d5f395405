"""Rows sent the short way, past the ORM: values bound as the ORM binds them, and the live
journal's batches of actions on PostgreSQL.

Through the ORM a statement costs a session execution, a compilation cache lookup and,
for a batch of actions, a statement per row and RETURNING rows. The short ways, inside
the caller's transaction:

- SQLite: server.db.sqlite_short, the live journal's operations as prepared statements
  on the writer thread's driver connection.
- PostgreSQL: `insert_unnest`, a batch of actions as one statement over arrays
  (`INSERT ... SELECT FROM unnest(...)`).

Values go through the columns' own bind processors (`Binder`), so rows are stored exactly
as the ORM would store them. Only the case without surprises goes this way: every row
new. When a row was already there (a replay, a retried batch) the caller is told, and
takes the ORM path, which checks that those rows are identical.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any
from weakref import WeakKeyDictionary

from sqlalchemy import Table
from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncConnection

from .models import Base, JournalEntry

Processor = Callable[[Any], Any] | None


class Binder:
    """Rows (dicts keyed by column name) as a dialect's driver takes them: each value
    through its column's bind processor, as the ORM would send it. The processors are
    looked up once per table and set of columns."""

    def __init__(self, dialect: Dialect) -> None:
        self.dialect = dialect
        self._processors: dict[tuple[str, tuple[str, ...]], list[Processor]] = {}

    def processors(self, table: Table, columns: tuple[str, ...]) -> list[Processor]:
        key = (table.name, columns)
        found = self._processors.get(key)
        if found is None:
            found = self._processors[key] = [
                table.c[name].type.dialect_impl(self.dialect).bind_processor(self.dialect)
                for name in columns
            ]
        return found

    def row(self, table: Table, values: dict[str, Any]) -> tuple[Any, ...]:
        """One row, its values in the dict's order."""
        processors = self.processors(table, tuple(values))
        return tuple(v if p is None else p(v)
                     for v, p in zip(values.values(), processors, strict=True))

    def rows(self, table: Table, values: Sequence[dict[str, Any]]) -> list[tuple[Any, ...]]:
        """Rows with the same columns, in the first row's order."""
        if not values:
            return []
        columns = tuple(values[0])
        bound = []
        for name, p in zip(columns, self.processors(table, columns), strict=True):
            column = [value[name] for value in values]  # column by column: a third faster
            bound.append(column if p is None else list(map(p, column)))
        return list(zip(*bound, strict=True))


JOURNAL = Base.metadata.tables[JournalEntry.__tablename__]
COLUMNS = ("room_id", "seq", "seat", "action", "created_at")  # rows.journal_values' keys
PG_SQL = (f"INSERT INTO journal ({', '.join(COLUMNS)}) "
          "SELECT * FROM unnest($1::integer[], $2::integer[], $3::integer[], $4::json[], "
          "$5::timestamptz[]) ON CONFLICT (room_id, seq) DO NOTHING RETURNING 1")

_BINDERS: WeakKeyDictionary[Dialect, Binder] = WeakKeyDictionary()


def unnest_applies(connection: AsyncConnection) -> bool:
    return connection.dialect.name == "postgresql" and connection.dialect.driver == "asyncpg"


async def insert_unnest(connection: AsyncConnection, values: Sequence[dict[str, Any]]) -> bool:
    """PostgreSQL: insert the journal rows (rows.journal_values) in the caller's
    transaction; True if every one was new."""
    if tuple(values[0]) != COLUMNS:
        raise ValueError(f"journal rows have the columns {COLUMNS}")
    binder = _BINDERS.get(connection.dialect)
    if binder is None:
        binder = _BINDERS[connection.dialect] = Binder(connection.dialect)
    columns = list(zip(*binder.rows(JOURNAL, values), strict=True))
    result = await connection.exec_driver_sql(PG_SQL, tuple(list(c) for c in columns))
    return len(result.all()) == len(values)

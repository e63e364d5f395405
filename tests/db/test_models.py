"""The column types: a timestamp is bound for SQLite in one step, exactly as SQLAlchemy's
two steps (process_bind_param, then its DATETIME text) would bind it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from sqlalchemy.dialects import sqlite

from server.db.models import UTCDateTime


@pytest.mark.parametrize("at", [
    datetime(2026, 12, 1, 14, 45, 2, 123456, tzinfo=UTC),
    datetime(2026, 1, 1, 0, 0, tzinfo=UTC),  # no microseconds: still six digits
    datetime(999, 3, 4, 5, 6, 7, 8, tzinfo=UTC),  # a year of three digits
    datetime(2026, 6, 30, 23, 30, 1, 5, tzinfo=timezone(timedelta(hours=-5))),  # not UTC
    None,
], ids=str)
def test_a_timestamp_is_bound_for_sqlite_as_sqlalchemy_binds_it(at: datetime | None) -> None:
    """UTCDateTime binds in one step on SQLite what process_bind_param and SQLAlchemy's own
    DATETIME processor would make of it in two."""
    dialect = sqlite.dialect()
    stamp = UTCDateTime().dialect_impl(dialect)
    reference = stamp.impl_instance.bind_processor(dialect)
    one_step = stamp.bind_processor(dialect)
    assert reference is not None and one_step is not None
    assert one_step(at) == reference(stamp.process_bind_param(at, dialect))


def test_a_naive_timestamp_is_refused() -> None:
    one_step = UTCDateTime().dialect_impl(sqlite.dialect()).bind_processor(sqlite.dialect())
    assert one_step is not None
    with pytest.raises(ValueError, match="naive"):
        one_step(datetime(2026, 1, 1, 12, 0))

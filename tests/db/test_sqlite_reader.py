"""Single reads on SQLite in one trip to the reader's thread (sqlite_reader.py): the same
answers as on the async engine, and a failed read leaves the reader usable."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection

from server.accounts import store
from server.accounts.names import name_key
from server.db.models import utcnow
from server.db.session import make_engine, session_factory, sqlite_path
from server.db.sqlite_reader import SqliteReader

HOLD = store.NameHold(names=2, hold=timedelta(days=30))


@pytest.mark.asyncio
async def test_a_guests_name_check_answers_as_on_the_async_engine(sqlite_url: str) -> None:
    engine = make_engine(sqlite_url)
    path = sqlite_path(sqlite_url)
    assert path is not None
    reader = SqliteReader(Path(path), busy_timeout=5.0)
    try:
        async with session_factory(engine)() as session, session.begin():
            alice = await store.create_account(session, "Alice", name_key("Alice"), None,
                                               utcnow())
            await store.rename(session, alice, "Alicia", name_key("Alicia"), utcnow())
        for name in ("Alicia", "alice", "Bob"):  # a name, an old name held, a free one

            async def taken(connection: AsyncConnection, name: str = name) -> bool:
                return await store.key_taken(connection, name_key(name), HOLD, utcnow())

            async with engine.connect() as connection:
                expected = await taken(connection)
            assert await reader.read(taken) is expected, name
            assert expected is (name != "Bob")
    finally:
        await reader.close()
        await engine.dispose()


@pytest.mark.asyncio
async def test_a_failed_read_raises_and_the_next_one_is_answered(sqlite_url: str) -> None:
    path = sqlite_path(sqlite_url)
    assert path is not None
    reader = SqliteReader(Path(path), busy_timeout=5.0)

    async def broken(connection: AsyncConnection) -> object:
        return await connection.scalar(text("SELECT * FROM no_such_table"))

    async def accounts(connection: AsyncConnection) -> object:
        return await connection.scalar(text("SELECT count(*) FROM accounts"))

    try:
        with pytest.raises(OperationalError):
            await reader.read(broken)
        assert await reader.read(accounts) == 0
    finally:
        await reader.close()

"""Every persistence test runs on SQLite (a temporary file) and on PostgreSQL
(TEST_DATABASE_URL, whose public schema is wiped before each test). Under pytest-xdist
each worker has a database of its own on that server (`<name>_gw0`, ...)."""

from __future__ import annotations

import os
import shutil
import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import pytest_asyncio
from sqlalchemy import create_engine, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from server.db.session import make_engine, session_factory, sqlite_path
from tests.pg_template import migrated_copy

from .proxy import TcpProxy


def _per_worker(url: str) -> str:
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker:
        return url
    base = make_url(url)
    return base.set(database=f"{base.database}_{worker}").render_as_string(hide_password=False)


TEST_PG = os.environ.get(
    "TEST_DATABASE_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/coffee_rush_test")
PG_URL = _per_worker(TEST_PG)


def _create_missing(url: URL) -> None:
    """Create `url`'s database if the server does not have it yet (a worker's first use)."""
    admin = create_engine(url.set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            if conn.scalar(text("SELECT 1 FROM pg_database WHERE datname = :name"),
                           {"name": url.database}) is None:
                conn.execute(text(f'CREATE DATABASE "{url.database}"'))
    finally:
        admin.dispose()


def reset_postgres(url: str) -> None:
    sync_url = make_url(url).set(drivername="postgresql+psycopg")
    engine = create_engine(sync_url)
    try:
        _create_missing(sync_url)
        with engine.begin() as conn:
            conn.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
            conn.execute(text("CREATE SCHEMA public"))
    except OperationalError as exc:
        pytest.skip(f"PostgreSQL not reachable at {sync_url.render_as_string()}: {exc.orig}")
    finally:
        engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path) -> str:
    """An empty database of each kind."""
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path}/db/coffee-rush.db"
    reset_postgres(PG_URL)
    return PG_URL


def _migrated_sqlite_copy(url: str, migrated_sqlite: Path) -> str:
    """`url`'s SQLite file made a copy of the session's migrated one (tests/conftest.py)."""
    path = sqlite_path(url)
    assert path is not None
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(migrated_sqlite, path)
    return url


@pytest.fixture
def sqlite_url(tmp_path: Path, migrated_sqlite: Path) -> str:
    """A migrated SQLite file of this test's own (for SQLite-only tests)."""
    return _migrated_sqlite_copy(f"sqlite+aiosqlite:///{tmp_path}/db/coffee-rush.db",
                                 migrated_sqlite)


@pytest.fixture
def migrated_url(db_url: str, migrated_sqlite: Path) -> str:
    """db_url at the newest schema, as a copy made in a fraction of a second: of the
    session's migrated SQLite file, or of the migrated PostgreSQL template
    (tests/pg_template.py). The migrations themselves are tested in test_migrations.py."""
    if db_url == PG_URL:
        migrated_copy(PG_URL, template_of=TEST_PG)
        return db_url
    return _migrated_sqlite_copy(db_url, migrated_sqlite)


@pytest_asyncio.fixture
async def engine(migrated_url: str) -> AsyncIterator[AsyncEngine]:
    e = make_engine(migrated_url)
    yield e
    await e.dispose()


@pytest.fixture
def sessions(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    """Sessions on a migrated database of each kind."""
    return session_factory(engine)


class Clock:
    """A fake clock: each call is one second after the previous one."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


# --- outages -----------------------------------------------------------------------------


class Outage:
    """Takes the database away from the journal and gives it back."""

    url: str

    async def cut(self) -> None: ...

    async def restore(self) -> None: ...


class PostgresOutage(Outage):
    def __init__(self, url: str) -> None:
        u = make_url(url)
        self.proxy = TcpProxy(u.host or "127.0.0.1", u.port or 5432)
        self._url = u

    async def open(self) -> None:
        await self.proxy.open()
        self.url = self._url.set(port=self.proxy.port).render_as_string(hide_password=False)

    async def cut(self) -> None:
        await self.proxy.shut()

    async def restore(self) -> None:
        await self.proxy.open()


class SqliteOutage(Outage):
    """Another process holds the write lock: every write fails with "database is locked"."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.path = sqlite_path(url)
        self.lock: sqlite3.Connection | None = None

    async def cut(self) -> None:
        self.lock = sqlite3.connect(self.path, isolation_level=None)
        self.lock.execute("BEGIN EXCLUSIVE")

    async def restore(self) -> None:
        assert self.lock is not None
        self.lock.execute("COMMIT")
        self.lock.close()


@pytest_asyncio.fixture
async def outage(migrated_url: str) -> AsyncIterator[Outage]:
    if make_url(migrated_url).get_backend_name() == "sqlite":
        yield SqliteOutage(migrated_url)
        return
    pg = PostgresOutage(migrated_url)
    await pg.open()
    yield pg
    if pg.proxy._server is not None:
        await pg.proxy.shut()


# A journal's deadline on each write, for the tests that do not time it: on a machine this
# busy (the suite's workers, its servers and browsers on two cores) a commit has taken over
# the production default of 2 s, and a test of fencing or batching then failed on a timeout.
UNHURRIED = 15.0

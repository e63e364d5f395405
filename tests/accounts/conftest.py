"""Account tests run on SQLite and on PostgreSQL (TEST_DATABASE_URL) where a database is
involved. The app runs in-process (its lifespan entered here, requests through httpx's
ASGI transport, each client with the address it pretends to come from), or as a real
server (`live_url`, `from_address`)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import pytest_asyncio
from db.conftest import PG_URL, reset_postgres
from fastapi import FastAPI
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from server.config import Settings
from server.db.migrate import DatabaseRefused
from server.main import create_app
from tests.serving import served

from .authenticator import Authenticator

ORIGIN = "http://testserver"
# DB_TIMEOUT for an app whose subject is not the database's timeouts. On PostgreSQL it is
# also idle_in_transaction_session_timeout (server.db.session), and on a loaded test machine
# (four workers, browsers, two cores) a test's event loop has stood still past the default
# 2 s mid-transaction, so that PostgreSQL ended the session and an ordinary request failed
# (tests/admin/test_operators.py; the bursts of tests/accounts/test_reset_edge.py), or an
# attempt's wait for its turn ran out (test_password_race.py); on SQLite, a sign-in burst's
# write waited past it for the database's lock (test_sign_in_burst.py).
LOADED_MACHINE_DB_TIMEOUT = "15"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path}/db/coffee-rush.db"
    reset_postgres(PG_URL)
    wait_for_the_last_server()
    return PG_URL


def wait_for_the_last_server(url: str = PG_URL, seconds: float = 10.0) -> None:
    """Until no server holds the journal's advisory lock on the test database: a closed
    app's locking connection ends a moment after it was closed (PostgreSQL notices the
    disconnect on its own time), and the next app would find the lock still held."""
    engine = create_engine(make_url(url).set(drivername="postgresql+psycopg"))
    try:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            with engine.connect() as conn:
                if not conn.scalar(text("SELECT count(*) FROM pg_locks l JOIN pg_database d"
                                        " ON d.oid = l.database WHERE l.locktype = 'advisory'"
                                        " AND d.datname = current_database()")):
                    return
            time.sleep(0.05)
    finally:
        engine.dispose()


@contextlib.asynccontextmanager
async def running_app(database: str, make_settings: Callable[..., Settings],
                      **overrides: Any) -> AsyncIterator[FastAPI]:
    """The app on `database` ("sqlite" or "postgresql", emptied), its lifespan running.

    A start refused by the database is tried again, twice: with a DB_TIMEOUT as short as
    some tests set (it is also PostgreSQL's idle-in-transaction timeout), a pause of this
    busy machine inside a start-up transaction has had PostgreSQL end the session."""
    settings: dict[str, Any] = {"BOT_WORKERS": 0, "DB_TIMEOUT": LOADED_MACHINE_DB_TIMEOUT,
                                **overrides}
    if database == "postgresql":
        reset_postgres(PG_URL)
        settings["DATABASE_URL"] = PG_URL
    for tries in range(3):
        if database == "postgresql":
            wait_for_the_last_server()
        built = create_app(make_settings(**settings))
        started = contextlib.AsyncExitStack()
        try:
            await started.enter_async_context(built.router.lifespan_context(built))
        except DatabaseRefused:
            if tries == 2:
                raise
            continue
        async with started:
            yield built
        return


@pytest_asyncio.fixture(params=["sqlite", "postgresql"])
async def app(request: pytest.FixtureRequest,
              make_settings: Callable[..., Settings]) -> AsyncIterator[FastAPI]:
    async with running_app(request.param, make_settings) as built:
        yield built


@pytest_asyncio.fixture
async def sqlite_app(make_settings: Callable[..., Settings]) -> AsyncIterator[FastAPI]:
    """The app on SQLite only (for tests whose subject is not the database)."""
    built = create_app(make_settings(BOT_WORKERS=0))
    async with built.router.lifespan_context(built):
        yield built


def client(app: FastAPI, address: str = "10.0.0.1", origin: str | None = ORIGIN,
           **kwargs: Any) -> httpx.AsyncClient:
    """A browser at `address` on `origin` (None: a script that sends no Origin)."""
    headers = {**({} if origin is None else {"origin": origin}), **kwargs.pop("headers", {})}
    kwargs.setdefault("base_url", "http://testserver")
    return httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app, client=(address, 40000)), headers=headers,
        **kwargs)


async def sign_up(browser: httpx.AsyncClient, name: str, password: str = "correct horse"
                  ) -> dict[str, Any]:
    r = await browser.post("/api/accounts", json={"name": name, "password": password})
    assert r.status_code == 201, r.text
    return r.json()


async def sign_up_with_passkey(browser: httpx.AsyncClient, name: str,
                               device: Authenticator) -> dict[str, Any]:
    r = await browser.post("/api/accounts/passkey/begin", json={"name": name})
    assert r.status_code == 200, r.text
    r = await browser.post("/api/accounts/passkey/finish",
                           json={"credential": device.create(r.json()["options"])})
    assert r.status_code == 201, r.text
    return r.json()


def refused(response: httpx.Response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.json()["error"]["code"] == code, response.text


@pytest.fixture(scope="module")
def live_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`python -m server` on SQLite (tests/serving.py), one per test module, trusting the
    test's X-Forwarded-For (`from_address`) so each test comes from addresses of its own."""
    database = tmp_path_factory.mktemp("live") / "coffee-rush.db"
    with served(database, BOT_WORKERS="0", FORWARDED_ALLOW_IPS="127.0.0.1") as url:
        yield url


def from_address(url: str, address: str) -> httpx.Client:
    """A browser at `address` on the live server (its Origin is the server's own)."""
    return httpx.Client(base_url=url, timeout=30,
                        headers={"x-forwarded-for": address, "origin": url})

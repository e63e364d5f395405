"""An attempt that waits DB_TIMEOUT for its turn is refused with a code, not a 500: a
password sign-in whose key another transaction holds (PostgreSQL: its advisory lock;
SQLite: the write lock) gets `unavailable` (503: the database could not take it; it is no
failure, so never `rate_limited`), a "send the code" whose client is held gets
`code_flood`. The lock is really held, by another connection, for the whole attempt."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable

import pytest
import pytest_asyncio
from fastapi import FastAPI
from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import AsyncConnection

from server.accounts import ratelimit
from server.accounts.store import LIMIT_LOCKS
from server.config import Settings
from server.db.models import utcnow
from server.db.session import make_engine, session_factory
from server.notify import AddressBook
from server.notify.addresses import CLIENT_LOCKS
from server.rooms import RoomError

from .conftest import LOADED_MACHINE_DB_TIMEOUT, client, refused, running_app, sign_up

pytestmark = pytest.mark.asyncio
WAIT = 0.5  # DB_TIMEOUT: how long an attempt waits for its turn


@pytest_asyncio.fixture(params=["sqlite", "postgresql"])
async def app(request: pytest.FixtureRequest,
              make_settings: Callable[..., Settings]) -> AsyncIterator[FastAPI]:
    async with running_app(request.param, make_settings, DB_TIMEOUT=WAIT) as built:
        yield built


@contextlib.asynccontextmanager
async def holding(url: str, space: int, key: str) -> AsyncIterator[AsyncConnection]:
    """Another connection holds `key`'s turn (PostgreSQL) or the write lock (SQLite) until
    the block ends."""
    engine = make_engine(url)
    try:
        async with engine.connect() as conn:
            if url.startswith("postgresql"):
                await conn.begin()
                await conn.execute(select(func.pg_advisory_xact_lock(space,
                                                                     func.hashtext(key))))
            else:
                await conn.exec_driver_sql("BEGIN IMMEDIATE")
            try:
                yield conn
            finally:
                await conn.rollback()
    finally:
        await engine.dispose()


async def test_a_sign_in_that_cannot_get_its_turn_is_refused_as_unavailable(
        app: FastAPI) -> None:
    url = app.state.settings.DATABASE_URL
    async with client(app, address="10.4.0.1") as alice:
        me = await sign_up(alice, "Alice")
        pair = ratelimit.pair_key(ratelimit.account_who(me["id"]), "10.4.0.1")
        async with holding(url, LIMIT_LOCKS, pair):
            r = await alice.post("/api/sign-in/password",
                                 json={"name": "Alice", "password": "correct horse"})
            refused(r, 503, "unavailable")
        r = await alice.post("/api/sign-in/password",  # its turn comes: checked, signed in
                             json={"name": "Alice", "password": "correct horse"})
        assert r.status_code == 200, r.text
    async with app.state.db_sessions() as session:  # the refusal left no failure behind
        assert await session.scalar(text("SELECT count(*) FROM sign_in_attempts")) == 0


async def test_a_code_request_that_cannot_get_its_turn_is_refused_as_code_flood(
        app: FastAPI) -> None:
    url = app.state.settings.DATABASE_URL
    book = AddressBook(app.state.db_sessions, utcnow)
    async with holding(url, CLIENT_LOCKS, "10.5.0.1"):
        with pytest.raises(RoomError) as refusal:
            await book.add("ROOM0001", 0, "ana@example.org", "en", "token", "10.5.0.1")
    assert refusal.value.code == "code_flood"
    # Its turn comes. WAIT is also PostgreSQL's idle_in_transaction_session_timeout for
    # the app's connections, and a loaded whole run once stood still past it inside this
    # request's transaction (the session ended): the request that needs no wait runs on
    # the loaded machine's timeout.
    patient = make_engine(url, connect_timeout=float(LOADED_MACHINE_DB_TIMEOUT),
                          statement_timeout=float(LOADED_MACHINE_DB_TIMEOUT))
    try:
        book = AddressBook(session_factory(patient), utcnow)
        status = await book.add("ROOM0001", 0, "ana@example.org", "en", "token", "10.5.0.1")
    finally:
        await patient.dispose()
    assert status["state"] == "pending"

"""Outages of every kind are outages: a SQLite write lock held by another process, a
network partition to PostgreSQL, CONNECT privilege revoked. Each write waits on the
database a bounded time at most, then goes to the fallback file (degraded); later writes
go straight there, even while a copy-back attempt is stuck; everything is copied back."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import make_url

from server.db.fallback import FallbackFile
from server.db.journal import Journal
from server.db.migrate import upgrade, upgrade_async
from server.db.session import make_engine, sqlite_path

from .conftest import PG_URL, Clock, reset_postgres
from .helpers import new_room
from .proxy import TcpProxy
from .test_fallback import eventually, seqs, step

HANG_GUARD = 120.0  # only keeps a broken build from hanging; never a measured bound


class WritesInFlight:
    """Counts the journal's data-changing statements that are waiting on the database."""

    def __init__(self, journal: Journal) -> None:
        self.now = self.started = 0
        sync = journal.write_engine
        event.listen(sync, "before_cursor_execute", self._before)
        event.listen(sync, "after_cursor_execute", self._after)
        event.listen(sync, "handle_error", self._error)

    @staticmethod
    def _writes(statement: str) -> bool:
        return statement.lstrip().split(None, 1)[0].upper() in ("INSERT", "UPDATE", "DELETE")

    def _before(self, _c: Any, _cur: Any, statement: str, *_: Any) -> None:
        if self._writes(statement):
            self.now += 1
            self.started += 1

    def _after(self, _c: Any, _cur: Any, statement: str, *_: Any) -> None:
        if self._writes(statement):
            self.now -= 1

    def _error(self, ctx: Any) -> None:
        if ctx.statement is not None and self._writes(ctx.statement):
            self.now -= 1


async def acked_while_copy_back_is_stuck(
    journal: Journal, watch: WritesInFlight, code: str, seqs_: range
) -> None:
    """Once a copy-back attempt is waiting on the database, later writes are acknowledged
    (from the fallback file) before that attempt ends: nothing waits for it. An attempt may
    end on its own while a write is being acknowledged (a loaded machine), so it is enough
    that most writes overlap one; where the writer waits for copy-back, none can."""
    overlapped = 0
    async with asyncio.timeout(HANG_GUARD):
        for seq in seqs_:
            while watch.now <= 0:  # a copy-back attempt is on its way to the database
                await asyncio.sleep(0.005)
            attempt = watch.started
            await journal.action_accepted(code, seq, 0, step(seq))
            overlapped += watch.now > 0 and watch.started == attempt
    assert overlapped > len(seqs_) // 2, "the writes waited on copy-back"


# --- SQLite: another process holds the write lock -------------------------------------

LOCKER = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
sys.stdin.readline()
db.execute("COMMIT")
"""


class Locker:
    """A second process that holds SQLite's write lock until released."""

    def __init__(self, path: Path) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", LOCKER, str(path)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None and self.proc.stdout.readline().strip() == "locked"

    def release(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.write("\n")
            self.proc.stdin.flush()
            self.proc.wait(10)
        self._close_pipes()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self._close_pipes()

    def _close_pipes(self) -> None:
        for pipe in (self.proc.stdin, self.proc.stdout):
            if pipe is not None and not pipe.closed:
                pipe.close()


@pytest.mark.asyncio
async def test_a_sqlite_lock_held_by_another_process_is_an_outage(
    sqlite_url: str, tmp_path: Path, clock: Clock
) -> None:
    fallback = tmp_path / "fallback.jsonl"
    # A long busy timeout, so that a stuck copy-back attempt is easy to catch in the act.
    engine = make_engine(sqlite_url, connect_timeout=5)
    journal = Journal(engine, fallback, retry_interval=0.01, retry_max=0.05,
                      write_timeout=5, clock=clock)
    watch = WritesInFlight(journal)
    await journal.start()
    locker = None
    try:
        await journal.room_created(new_room("LOCKED01", clock()))
        await journal.action_accepted("LOCKED01", 1, 0, step(1))
        locker = Locker(sqlite_path(sqlite_url))
        async with asyncio.timeout(HANG_GUARD):
            await journal.action_accepted("LOCKED01", 2, 0, step(2))  # waits the busy timeout once
        assert journal.degraded and len(FallbackFile(fallback).read()) == 1
        await acked_while_copy_back_is_stuck(journal, watch, "LOCKED01", range(3, 8))
        assert journal.degraded and len(FallbackFile(fallback).read()) == 6
        locker.release()
        await eventually(lambda: not journal.degraded)
        await journal.action_accepted("LOCKED01", 8, 0, step(8))
        assert not FallbackFile(fallback).pending()
        assert await seqs(engine, "LOCKED01") == [1, 2, 3, 4, 5, 6, 7, 8]
    finally:
        if locker is not None:
            locker.kill()
        await journal.stop()
        await engine.dispose()


# --- PostgreSQL: a network partition --------------------------------------------------


@pytest_asyncio.fixture
async def pg_proxy() -> AsyncIterator[tuple[str, TcpProxy]]:
    reset_postgres(PG_URL)
    await upgrade_async(PG_URL)
    u = make_url(PG_URL)
    proxy = TcpProxy(u.host or "127.0.0.1", u.port or 5432)
    await proxy.open()
    yield u.set(port=proxy.port).render_as_string(hide_password=False), proxy
    proxy.thaw()
    await proxy.shut()


@pytest.mark.asyncio
async def test_a_network_partition_to_postgresql_is_an_outage(
    pg_proxy: tuple[str, TcpProxy], tmp_path: Path, clock: Clock
) -> None:
    url, proxy = pg_proxy
    fallback = tmp_path / "fallback.jsonl"
    engine = make_engine(url, connect_timeout=2, statement_timeout=2)
    journal = Journal(engine, fallback, retry_interval=0.01, retry_max=0.05,
                      write_timeout=2, clock=clock)
    direct = make_engine(PG_URL)
    await journal.start()
    try:
        await journal.room_created(new_room("PARTED01", clock()))
        await journal.action_accepted("PARTED01", 1, 0, step(1))
        proxy.freeze()  # the kept connection stays open; nothing gets through any more
        async with asyncio.timeout(HANG_GUARD):
            await journal.action_accepted("PARTED01", 2, 0, step(2))  # the deadline, once
        assert journal.degraded and len(FallbackFile(fallback).read()) == 1
        async with asyncio.timeout(HANG_GUARD):  # while copy-back attempts keep hanging
            for seq in (3, 4, 5):
                await journal.action_accepted("PARTED01", seq, 0, step(seq))
        assert journal.degraded and await seqs(direct, "PARTED01") == [1]
        proxy.thaw()
        await eventually(lambda: not journal.degraded, HANG_GUARD)
        await journal.action_accepted("PARTED01", 6, 0, step(6))
        assert await seqs(direct, "PARTED01") == [1, 2, 3, 4, 5, 6]
        assert not FallbackFile(fallback).pending()
    finally:
        await journal.stop()
        await engine.dispose()
        await direct.dispose()


# --- PostgreSQL: CONNECT privilege revoked --------------------------------------------


def _admin(sql: str, database: str = "postgres") -> None:
    url = make_url(PG_URL).set(drivername="postgresql+psycopg", database=database)
    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(text(sql))
    finally:
        engine.dispose()


@pytest.fixture
def revocable() -> Iterator[tuple[str, str]]:
    """A dedicated database and login role, so revoking CONNECT touches nobody else."""
    base = make_url(PG_URL)
    reset_postgres(PG_URL)  # skips when PostgreSQL is not there
    name, role = f"{base.database}_revoke", f"{base.database}_player"
    _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    _admin(f'DROP ROLE IF EXISTS "{role}"')
    _admin(f'CREATE ROLE "{role}" LOGIN')
    _admin(f'CREATE DATABASE "{name}"')
    url = base.set(database=name).render_as_string(hide_password=False)
    upgrade(url)
    _admin(f'GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO "{role}"',
           name)
    _admin(f'GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO "{role}"', name)
    _admin(f'REVOKE CONNECT ON DATABASE "{name}" FROM PUBLIC')
    _admin(f'GRANT CONNECT ON DATABASE "{name}" TO "{role}"')
    yield url, role
    _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    _admin(f'DROP ROLE IF EXISTS "{role}"')


@pytest.mark.asyncio
async def test_connect_privilege_revoked_is_an_outage(
    revocable: tuple[str, str], tmp_path: Path, clock: Clock
) -> None:
    admin_url, role = revocable
    name = make_url(admin_url).database
    url = make_url(admin_url).set(username=role).render_as_string(hide_password=False)
    fallback = tmp_path / "fallback.jsonl"
    engine = make_engine(url, connect_timeout=2, statement_timeout=2)
    journal = Journal(engine, fallback, retry_interval=0.02, retry_max=0.1, clock=clock)
    direct = make_engine(admin_url)
    await journal.start()
    try:
        await journal.room_created(new_room("REVOKE01", clock()))
        await journal.action_accepted("REVOKE01", 1, 0, step(1))
        await asyncio.to_thread(_admin, f'REVOKE CONNECT ON DATABASE "{name}" FROM "{role}"')
        await asyncio.to_thread(  # and its sessions end, as an operator would make them
            _admin, f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    f"WHERE usename = '{role}'")
        for seq in (2, 3, 4):
            await journal.action_accepted("REVOKE01", seq, 0, step(seq))  # acked from the file
        assert journal.degraded and len(FallbackFile(fallback).read()) == 3
        assert await seqs(direct, "REVOKE01") == [1]
        await asyncio.to_thread(_admin, f'GRANT CONNECT ON DATABASE "{name}" TO "{role}"')
        await eventually(lambda: not journal.degraded)
        assert await seqs(direct, "REVOKE01") == [1, 2, 3, 4]
        assert not FallbackFile(fallback).rejected_path.exists()
    finally:
        await journal.stop()
        await engine.dispose()
        await direct.dispose()


# --- PostgreSQL: another session holds a lock on the journal --------------------------


@pytest.mark.asyncio
async def test_a_postgresql_lock_held_by_another_session_is_an_outage(
    tmp_path: Path, clock: Clock
) -> None:
    reset_postgres(PG_URL)
    await upgrade_async(PG_URL)
    fallback = tmp_path / "fallback.jsonl"
    engine = make_engine(PG_URL, connect_timeout=3, statement_timeout=3)
    journal = Journal(engine, fallback, retry_interval=0.01, retry_max=0.05,
                      write_timeout=6, clock=clock)
    watch = WritesInFlight(journal)
    other = create_engine(make_url(PG_URL).set(drivername="postgresql+psycopg"))
    await journal.start()
    holder = None
    try:
        await journal.room_created(new_room("PGLOCK01", clock()))
        await journal.action_accepted("PGLOCK01", 1, 0, step(1))
        holder = other.connect()
        holder.begin()
        holder.execute(text("LOCK TABLE journal IN ACCESS EXCLUSIVE MODE"))
        async with asyncio.timeout(HANG_GUARD):
            await journal.action_accepted("PGLOCK01", 2, 0, step(2))  # the lock timeout, once
        assert journal.degraded and len(FallbackFile(fallback).read()) == 1
        await acked_while_copy_back_is_stuck(journal, watch, "PGLOCK01", range(3, 6))
        holder.rollback()
        holder.close()
        holder = None
        await eventually(lambda: not journal.degraded, HANG_GUARD)
        await journal.action_accepted("PGLOCK01", 6, 0, step(6))
        assert await seqs(engine, "PGLOCK01") == [1, 2, 3, 4, 5, 6]
        assert not FallbackFile(fallback).pending()
    finally:
        if holder is not None:
            holder.close()
        await journal.stop()
        await engine.dispose()
        other.dispose()

"""A database the server must not use stops `python -m server` with a one-line cause on
stderr and a non-zero exit status, never a traceback, and is left untouched: one that is
down, one holding another application's tables (SQLite included: never silently shared),
one with Coffee Rush tables but no `alembic_version`, one at a revision we do not know."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import inspect, text

from server.db.migrate import upgrade
from server.db.session import make_engine, sqlite_path
from tests.serving import ROOT, free_port


def start(url: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """Run the server on `url` until it exits by itself (it must: nothing can serve)."""
    env = {**os.environ, "HOST": "127.0.0.1", "PORT": str(free_port()), "DATABASE_URL": url,
           "JOURNAL_FALLBACK_PATH": str(tmp_path / "fallback.jsonl"), "LOG_LEVEL": "info",
           "BOT_WORKERS": "1"}
    return subprocess.run([sys.executable, "-m", "server"], cwd=ROOT, env=env, timeout=60,
                          capture_output=True, text=True)


def refused(result: subprocess.CompletedProcess[str]) -> str:
    """The single line of the refusal (asserting there is nothing else on stderr but
    uvicorn's own one-line notices)."""
    assert result.returncode != 0
    assert "Traceback" not in result.stderr, result.stderr
    lines = [line for line in result.stderr.splitlines() if "cannot start" in line]
    assert len(lines) == 1, result.stderr
    others = [line for line in result.stderr.splitlines()
              if line.strip() and line not in lines and not line.startswith("INFO:")]
    assert others == [], result.stderr
    return lines[0]


def run_sql(url: str, *statements: str) -> None:
    async def go() -> None:
        engine = make_engine(url)
        try:
            async with engine.begin() as conn:
                for statement in statements:
                    await conn.execute(text(statement))
        finally:
            await engine.dispose()

    asyncio.run(go())


def contents(url: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every table there and its rows."""
    def read(conn: Any) -> dict[str, list[tuple[Any, ...]]]:
        return {name: sorted(map(tuple, conn.execute(text(f"SELECT * FROM {name}"))), key=repr)
                for name in inspect(conn).get_table_names()}

    async def go() -> dict[str, list[tuple[Any, ...]]]:
        engine = make_engine(url)
        try:
            async with engine.connect() as conn:
                return await conn.run_sync(read)
        finally:
            await engine.dispose()

    return asyncio.run(go())


def test_a_database_that_is_down_is_one_line(tmp_path: Path):
    url = f"postgresql+asyncpg://postgres:secret@127.0.0.1:{free_port()}/nowhere"
    line = refused(start(url, tmp_path))
    assert f"127.0.0.1:{url.rsplit(':', 1)[1].split('/')[0]}" in line
    assert "secret" not in line  # the password is never printed


FOREIGN: dict[str, Callable[[str], Any]] = {
    "another application's tables": lambda url: run_sql(
        url, "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)",
        "INSERT INTO customers VALUES (1, 'Ada')"),
    "Coffee Rush tables but no alembic_version": lambda url: (
        upgrade(url), run_sql(url, "DROP TABLE alembic_version")),
    "a revision we do not know": lambda url: run_sql(
        url, "CREATE TABLE alembic_version (version_num VARCHAR(32) PRIMARY KEY)",
        "INSERT INTO alembic_version VALUES ('f00dfeed1234')",
        "CREATE TABLE ledger (id INTEGER PRIMARY KEY)"),
}
EXPECTED = {
    "another application's tables": "another application's tables (customers)",
    "Coffee Rush tables but no alembic_version": "no alembic_version table",
    "a revision we do not know": "migration f00dfeed1234, which this server does not know",
}


@pytest.mark.parametrize("case", list(FOREIGN))
def test_a_database_that_is_not_ours_is_refused_and_left_alone(
    case: str, db_url: str, tmp_path: Path
):
    FOREIGN[case](db_url)
    before = contents(db_url)
    path = sqlite_path(db_url)
    if path is not None:  # as another application's file would be: not in WAL mode
        with contextlib.closing(sqlite3.connect(path)) as conn:
            conn.execute("PRAGMA journal_mode=DELETE")
    data = None if path is None else path.read_bytes()
    line = refused(start(db_url, tmp_path))
    assert EXPECTED[case] in line
    if path is not None:  # not even the header (journal_mode=WAL would change it)
        assert path.read_bytes() == data
    assert contents(db_url) == before  # nothing created next to their tables, nothing changed

"""A second server on the same data is refused before it touches anything (issue 25.16):
on the same data directory (fallback file, SQLite database) and, outside cluster mode, on
the same PostgreSQL database. The first one keeps serving and loses nothing."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

from db.conftest import PG_URL, reset_postgres
from db.disk import small_disk

from tests.serving import ROOT, free_port

from .live import Server, Table, replay, seat_views
from .test_startup import refused

SEED, PLAYERS = 5, 2


def run_second(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "server"], cwd=ROOT, timeout=60, text=True,
                          env={**os.environ, **env, "PORT": str(free_port())},
                          capture_output=True)


def digest(folder: Path) -> dict[str, str]:
    """Every file in the data directory but the SQLite database's own (the first server
    writes those) and their contents."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.iterdir()) if ".db" not in p.name}


def check_refused_and_first_unharmed(first: Server, second_env: dict[str, str],
                                     data: Path, expected: str) -> None:
    table = Table(first, PLAYERS, seed=1)
    table.play(6)
    before = digest(data)

    result = run_second(second_env)
    line = refused(result)
    assert expected in line, line
    assert digest(data) == before  # the fallback file and the lock's pid untouched

    table.play(6)  # the first server still acknowledges
    table.close()
    assert first.terminate()
    first.start()
    table.connect(first)
    assert [p.game() for p in table.players] == seat_views(replay(SEED, PLAYERS, table.acked))
    table.close()


def test_a_second_server_on_the_same_data_directory_is_refused(tmp_path: Path) -> None:
    data = tmp_path / "data"
    env = {"DATABASE_URL": f"sqlite+aiosqlite:///{data}/coffee-rush.db",
           "JOURNAL_FALLBACK_PATH": str(data / "journal-fallback.jsonl"),
           "TEST_FIXED_SEED": str(SEED), "BOT_WORKERS": "0"}
    first = Server(env)
    first.start()
    try:
        check_refused_and_first_unharmed(first, env, data, "another server (pid")
    finally:
        first.stop()


def test_a_symlink_to_the_same_sqlite_file_is_refused_too(tmp_path: Path) -> None:
    data = tmp_path / "data"
    env = {"DATABASE_URL": f"sqlite+aiosqlite:///{data}/coffee-rush.db",
           "JOURNAL_FALLBACK_PATH": str(data / "journal-fallback.jsonl"),
           "TEST_FIXED_SEED": str(SEED), "BOT_WORKERS": "0"}
    first = Server(env)
    first.start()
    try:  # another name for the same file, and a fallback file of its own
        (tmp_path / "other").mkdir()
        (tmp_path / "other" / "alias.db").symlink_to(data / "coffee-rush.db")
        other = {**env, "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/other/alias.db",
                 "JOURNAL_FALLBACK_PATH": str(tmp_path / "other" / "fallback.jsonl")}
        check_refused_and_first_unharmed(first, other, data, "another server (pid")
        assert not (tmp_path / "other" / "fallback.jsonl").exists()
    finally:
        first.stop()


def test_a_second_single_server_on_the_same_postgresql_is_refused(tmp_path: Path) -> None:
    reset_postgres(PG_URL)
    data = tmp_path / "data"
    env = {"DATABASE_URL": PG_URL, "JOURNAL_FALLBACK_PATH": str(data / "journal-fallback.jsonl"),
           "TEST_FIXED_SEED": str(SEED), "BOT_WORKERS": "0"}
    first = Server(env)
    first.start()
    try:  # its own fallback file: only the database is shared
        other = {**env, "JOURNAL_FALLBACK_PATH": str(tmp_path / "other" / "fallback.jsonl")}
        check_refused_and_first_unharmed(first, other, data, "holds the journal of this database")
        assert not (tmp_path / "other" / "fallback.jsonl").exists()
    finally:
        first.stop()


def test_a_read_only_data_directory_is_refused_at_start_up(tmp_path: Path) -> None:
    with small_disk(tmp_path / "data", "1m") as data:
        subprocess.run(["mount", "-o", "remount,ro", str(data)], check=True)
        result = run_second({
            "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/db/coffee-rush.db",
            "JOURNAL_FALLBACK_PATH": str(data / "journal-fallback.jsonl"), "BOT_WORKERS": "0"})
        line = refused(result)
        assert f"cannot write in {data}" in line, line

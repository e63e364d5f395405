"""Backups you can restore, on real servers: games are played on a server, a backup is
taken with `coffee-rush backup` while a table is playing, the table plays on, and the
backup is restored (`coffee-rush restore`) into a fresh database: SQLite into SQLite or
PostgreSQL (a host moving up), PostgreSQL into SQLite. The server started on it has every
finished game, every account and its rating, and the unfinished table as of the backup,
which then plays to its end."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from db.conftest import PG_URL, reset_postgres

from tests.persist.live import Server, Table, stored_game
from tests.persist.test_rated_live import rated_game, ratings_of

pytestmark = pytest.mark.timeout(300)
ROOT = Path(__file__).resolve().parents[2]


def cli(*argv: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "server.cli", *argv], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def env(url: str, tmp: Path) -> dict[str, str]:
    return {"DATABASE_URL": url, "BOT_WORKERS": "1", "BOT_DELAY": "0",
            "JOURNAL_FALLBACK_PATH": str(tmp / "fallback.jsonl"), "RATED_GAMES_TO_RANK": "1"}


def players(server: Server) -> list[dict[str, Any]]:
    return sorted(httpx.get(f"{server.http}/api/players").json()["players"],
                  key=lambda p: p["name"])


def database(kind: str, path: Path) -> str:
    """A new SQLite file at `path`, or the emptied PostgreSQL test database."""
    if kind == "sqlite":
        return f"sqlite+aiosqlite:///{path}"
    reset_postgres(PG_URL)
    return PG_URL


@pytest.mark.parametrize(("source", "target"), [
    ("sqlite", "sqlite"), ("sqlite", "postgresql"), ("postgresql", "sqlite")])
def test_a_backup_taken_mid_game_restores_every_game_account_rating_and_room(
    tmp_path: Path, source: str, target: str,
) -> None:
    source_url = database(source, tmp_path / "source.db")
    backup = tmp_path / "coffee-rush.backup.gz"

    first = Server(env(source_url, tmp_path), log=tmp_path / "source.log")
    first.start()
    try:
        finished = rated_game(first)
        table = Table(first, players=2, seed=3)
        table.play(12)
        board = players(first)
        at_backup = table.players[0].game()
        cli("backup", str(backup), "--database-url", source_url)  # while the server runs
        table.play(6)  # after the backup: not in it
        assert table.players[0].game() != at_backup
    finally:
        first.stop()
    target_url = database(target, tmp_path / "restored.db")

    restored = cli("restore", str(backup), "--database-url", target_url)
    assert "rows" in restored.stdout
    server = Server(env(target_url, tmp_path), log=tmp_path / "restored.log")
    server.start()
    try:
        assert stored_game(target_url, finished) is not None
        assert players(server) == board  # the accounts, their ratings and games
        with httpx.Client(base_url=server.http, timeout=10) as ana:
            signed = ana.post("/api/sign-in/password",
                              json={"name": "Ana", "password": "Ana-secret-1"})
            assert signed.status_code == 200, signed.text
        table.players = []
        table.connect(server)  # fresh snapshots from the restored room
        assert table.players[0].game() == at_backup
        table.play()  # the room plays on, to its end, and is stored
        assert table.players[0].game()["phase"] == "over"
        assert ratings_of(table.api, table.code) is not None
        assert "Traceback" not in server.errors()
    finally:
        table.close()
        server.stop()

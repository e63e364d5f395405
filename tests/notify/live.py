"""`python -m server` with mail on, for the notify tests that go through a real process: the
real templates (pages are part of what they check), a real SMTP server, client addresses
taken from X-Forwarded-For (as behind a proxy), so one test can ask from many."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.persist.live import Server

from .smtp import SmtpServer

PUBLIC_URL = "https://coffee-rush.games.example.org"


@pytest.fixture
def mail_server(db_url: str, tmp_path: Path, smtp: SmtpServer) -> Iterator[Server]:
    env = {k: str(v) for k, v in smtp.settings().items()}
    server = Server({**env, "DATABASE_URL": db_url, "TEST_FIXED_SEED": "7",
                     "BOT_WORKERS": "0", "ROOM_CREATE_RATE": "1000",
                     "FORWARDED_ALLOW_IPS": "127.0.0.1",
                     # A site's usual length: its unsubscribe link no longer fits a line.
                     "PUBLIC_URL": PUBLIC_URL,
                     "JOURNAL_FALLBACK_PATH": str(tmp_path / "data" / "fallback.jsonl")},
                    log=tmp_path / "server.log")
    server.start()
    try:
        yield server
    finally:
        server.stop()
    assert "Traceback" not in server.errors()


def seat_of_new_table(api: httpx.Client, players: int = 2) -> tuple[str, list[str]]:
    """A turn-based table (not started) and its players' seat tokens."""
    created = api.post("/api/rooms", json={"players": players, "mode": "turn_based"})
    assert created.status_code == 201, created.text
    code = created.json()["code"]
    tokens = [api.post(f"/api/rooms/{code}/join", json={"name": f"P{n}"}).json()["seat_token"]
              for n in range(players)]
    return code, tokens

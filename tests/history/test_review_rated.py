"""REVIEW_RATED end to end on a real server (issue 45): two signed-in players and a greedy
bot play a whole rated game over websockets; with nobody asking, the game's review is
computed in the bot workers and stored, once. Two bots' game, not rated, is left
unreviewed."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.db.records import GameDetail
from tests.persist.live import Server, bots_game, stored_game
from tests.persist.test_rated_live import rated_game, ratings_of

pytestmark = pytest.mark.timeout(150)


def review_row(db: Path, game_id: int) -> tuple[str, int] | None:
    with sqlite3.connect(db) as conn:
        found = conn.execute("SELECT state, computed FROM game_reviews WHERE game_id = ?",
                             (game_id,)).fetchone()
    return None if found is None else (found[0], found[1])


def until_stored(url: str, code: str) -> GameDetail:
    for _ in range(600):
        found = stored_game(url, code)
        if found is not None:
            return found
        time.sleep(0.1)
    raise AssertionError(f"the game of {code} was never stored")


def test_a_rated_game_is_reviewed_once_without_anyone_asking(tmp_path: Path) -> None:
    db = tmp_path / "coffee-rush.db"
    url = f"sqlite+aiosqlite:///{db}"
    server = Server({"DATABASE_URL": url, "BOT_WORKERS": "1", "BOT_DELAY": "0",
                     "JOURNAL_FALLBACK_PATH": str(tmp_path / "fallback.jsonl"),
                     "REVIEW_RATED": "true", "REVIEW_WORK": "0.02", "SWEEP_INTERVAL": "0.5"})
    server.start()
    guest = httpx.Client(base_url=server.http, timeout=10)
    try:
        # Two random bots' table, not rated: it plays on while the rated game is played.
        link = bots_game(server.http)

        code = rated_game(server)  # Ana, Ben and a greedy bot
        assert {p["name"] for p in ratings_of(guest, code)["players"]} == {"Ana", "Ben"}

        rated = stored_game(url, code)
        unrated = until_stored(url, link)
        assert rated is not None
        rated_id, unrated_id = rated.summary.id, unrated.summary.id
        deadline = time.monotonic() + 90
        answer: dict[str, Any] = {}
        while time.monotonic() < deadline:  # nobody asks: GET only reads
            answer = guest.get(f"/api/games/{rated_id}/review").json()
            if answer["state"] == "done":
                break
            time.sleep(0.1)
        assert answer["state"] == "done", answer
        review = answer["review"]
        assert [p["seat"] for p in review["players"]] == [0, 1, 2]
        assert {t["seat"] for t in review["turns"]} == {0, 1, 2}
        assert review["work"] == 0.02
        time.sleep(1.5)  # three more sweeps: nothing asked again, nothing computed again
        assert review_row(db, rated_id) == ("done", 1)
        assert review_row(db, unrated_id) is None
        assert guest.get(f"/api/games/{unrated_id}/review").json() == {"state": "none"}
    finally:
        guest.close()
        server.stop()

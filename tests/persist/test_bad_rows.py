"""One bad stored row closes its own room, not the server: a real `python -m server` starts
on a database holding an unreadable action, a seed that is not a number and options with
no player count; those rooms come back closed with a notice (and a one-line log), the
others play on."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import text

from server.db import store
from server.db.migrate import upgrade
from server.db.records import ActionRecord, NewRoom, SeatRecord
from server.rules import RULES_VERSION, apply, legal_actions, new_game

from .live import Player, Server
from .test_restore import AT, db

# Each bad room, and what is wrong with it in the database.
BAD = {
    "JSNX2345": "an action that is not JSON",
    "SEED2345": "a seed that is not a number",
    "PTS22345": "options without `players`",
}
GOOD = "GD222345"


def stored_playing_room(code: str, seed: int, options: dict[str, Any], actions: int) -> Any:
    """A playing room of two players (Ana, Bo) with `actions` random legal actions."""
    room = NewRoom(code, options, seed, RULES_VERSION, store.hash_token("host"), AT,
                   (SeatRecord(0, "Ana", None, store.hash_token(f"{code}-ana")),
                    SeatRecord(1, "Bo", None, store.hash_token(f"{code}-bo"))))
    game, rng, records = new_game(seed, 2), random.Random(seed), []
    for _ in range(actions):
        seat, action = game.current, rng.choice(legal_actions(game))
        apply(game, action, seat)
        records.append(ActionRecord(code, game.version, seat, action, AT))

    async def write(s: Any) -> None:
        await store.create_room(s, room)
        await store.start_room(s, code, options=options, seed=seed, started_at=AT)
        await store.append_actions(s, records)

    return write


def test_bad_rows_close_their_rooms_and_the_server_starts(db_url: str, tmp_path: Path):
    upgrade(db_url)
    for code in (GOOD, *BAD):
        options = {"public": False} if code == "PTS22345" else {"players": 2}
        db(db_url, stored_playing_room(code, 5, options, 6))
    postgres = db_url.startswith("postgresql")
    # PostgreSQL checks JSON on the way in: there the action is JSON, but not an action.
    garbage = "'\"teleport\"'" if postgres else "'{\"type\": \"pla'"

    async def corrupt(s: Any) -> None:
        await s.execute(text(
            f"UPDATE journal SET action = {garbage} WHERE seq = 3 AND room_id = "
            "(SELECT id FROM rooms WHERE code = 'JSNX2345')"))
        await s.execute(text("UPDATE rooms SET seed = 'twelve' WHERE code = 'SEED2345'"))

    db(db_url, corrupt)
    server = Server({"DATABASE_URL": db_url, "BOT_WORKERS": "0",
                     "JOURNAL_FALLBACK_PATH": str(tmp_path / "fallback.jsonl")},
                    log=tmp_path / "stderr.txt")
    server.start()
    try:
        api = server.http
        for code in BAD:
            info = httpx.get(f"{api}/api/rooms/{code}").json()
            assert info["status"] == "incompatible", (BAD[code], info)
            assert "cannot continue" in info["notice"]
            # What can be shown still is: the players' names.
            assert [s["name"] for s in info["seats"]] == ["Ana", "Bo"], BAD[code]
        assert httpx.get(f"{api}/api/rooms/{GOOD}").json()["status"] == "playing"
        # The good room plays on: its player acts and is acknowledged.
        ana = Player(server.ws(GOOD), f"{GOOD}-ana")
        bo = Player(server.ws(GOOD), f"{GOOD}-bo")
        mover = [ana, bo][ana.game()["current"]]
        mover.act(mover.game()["legal"][0])  # returns on its ack
        ana.close()
        bo.close()
    finally:
        assert server.terminate()
    log = server.errors()
    for code in BAD:
        lines = [line for line in log.splitlines() if f"room {code} cannot be restored" in line]
        assert len(lines) == 1, (code, log)
    assert "Traceback" not in log, log

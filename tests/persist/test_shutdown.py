"""Nobody misses a game's end across a restart: a finished room is on show again after
one (until FINISHED_ROOM_TTL), and bots make no move once a graceful shutdown has begun,
so what the players last saw before "bye" is exactly what was kept. Real server
processes, stopped with SIGTERM."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.db import store
from server.rules import view

from .live import Player, Server, bots_game, replay, stored_game
from .test_restore import db

SEED = 7


@pytest.fixture
def server(tmp_path: Path, db_url: str):
    s = Server({
        "DATABASE_URL": db_url, "TEST_FIXED_SEED": str(SEED), "BOT_WORKERS": "1",
        "BOT_DELAY": "0", "BOT_BUDGET": "0.05",
        "JOURNAL_FALLBACK_PATH": str(tmp_path / "journal-fallback.jsonl"),
    })
    s.start()
    yield s
    s.stop()


def info(server: Server, code: str) -> httpx.Response:
    return httpx.get(f"{server.http}/api/rooms/{code}", timeout=10)


def spectator_view(game: Any) -> dict[str, Any]:
    return json.loads(json.dumps(view(game, None)))


def test_a_finished_room_is_on_show_after_a_restart_until_its_ttl(server: Server):
    code = bots_game(server.http)
    for _ in range(1200):
        if info(server, code).json()["status"] == "finished":
            break
        time.sleep(0.1)
    assert info(server, code).json()["status"] == "finished"
    assert server.terminate()

    server.start()
    assert info(server, code).json()["status"] == "finished"
    watcher = Player(server.ws(code), None)  # type: ignore[arg-type]  # a spectator
    saved = stored_game(server.env["DATABASE_URL"], code)
    assert saved is not None
    game = replay(SEED, 2, [(s, a) for s, a in saved.actions])
    assert watcher.game()["phase"] == "over" and watcher.game() == spectator_view(game)
    assert watcher.game()["result"]["scores"] == saved.result["scores"]
    watcher.close()
    assert server.terminate()

    server.env["FINISHED_ROOM_TTL"] = "0"  # its time on show is over: gone after a restart
    server.start()
    assert info(server, code).status_code == 404


def test_bots_make_no_move_after_the_bye(server: Server):
    code = bots_game(server.http)
    watcher = Player(server.ws(code), None)  # type: ignore[arg-type]  # a spectator
    for _ in range(10):  # the bots are playing
        assert watcher.recv()["type"] == "patch"
    assert server.proc is not None
    server.proc.terminate()  # SIGTERM: a graceful shutdown begins
    while (frame := watcher.recv())["type"] != "bye":
        assert frame["type"] == "patch", frame
    seen = watcher.game()
    watcher.close()
    assert server.proc.wait(30) is not None

    # What the database kept is exactly what the spectator saw last.
    saved = stored_game(server.env["DATABASE_URL"], code)
    if saved is not None:  # the game happened to end before the shutdown
        actions = [(s, a) for s, a in saved.actions]
    else:
        rooms = db(server.env["DATABASE_URL"], store.load_unfinished_rooms)
        (room,) = [r for r in rooms if r.code == code.replace("-", "")]
        actions = [(seat, action) for _, seat, action in room.actions]
    assert spectator_view(replay(SEED, 2, actions)) == seen, (
        f"{len(actions)} actions kept; the spectator's last view was at turn {seen['turn']}")

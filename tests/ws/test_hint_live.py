"""Hints on a real server (issue 27): a seated player whose turn it is may ask what the
expert would do, in a room whose host allowed it; nobody else may (a spectator, the seat
waiting for its turn, anyone in a room without hints; one at a time); the answer goes to
that seat only and never changes the game; every hint given is kept with the game, across
a restart, and the replay carries it (R-HIDDEN: the hint holds only an action and its
why)."""

from __future__ import annotations

import json
import os
import random
import signal
from pathlib import Path
from typing import Any

import httpx

from tests.persist.live import Player, Server
from tests.serving import children

SEED = 5


def _room(api: httpx.Client, **options: Any) -> tuple[str, list[str]]:
    created = api.post("/api/rooms", json={"players": 2, **options})
    assert created.status_code == 201, created.text
    code, host = created.json()["code"], created.json()["host_token"]
    tokens = [api.post(f"/api/rooms/{code}/join", json={"name": name}).json()["seat_token"]
              for name in ("Ana", "Bo")]
    assert api.post(f"/api/rooms/{code}/start", json={"token": host}).is_success
    return code, tokens


def _ask(player: Player, frame_id: str) -> dict[str, Any]:
    """Send a hint frame; the answer with this id (a hint or an error)."""
    player.ws.send(json.dumps({"type": "hint", "id": frame_id}))
    return _answer(player, frame_id)


def _answer(player: Player, frame_id: str) -> dict[str, Any]:
    while True:
        frame = player.recv(timeout=30)
        if frame["type"] in ("hint", "error") and frame.get("id") == frame_id:
            return frame


def _settle(players: list[Player]) -> dict[str, Any]:
    target = max(p.v for p in players)
    for p in players:
        while p.v < target:
            p.recv()
    return players[0].game()


def test_hints_are_for_the_seat_to_act_in_rooms_that_allow_them_and_reach_the_replay(
        tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    server = Server({
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/data/coffee-rush.db",
        "JOURNAL_FALLBACK_PATH": str(tmp_path / "data" / "journal-fallback.jsonl"),
        "TEST_FIXED_SEED": str(SEED), "BOT_WORKERS": "1", "BOT_BUDGET": "0.05",
    }, log=tmp_path / "server.log")
    server.start()
    try:
        with httpx.Client(base_url=server.http, timeout=10) as api:
            plain, plain_tokens = _room(api)  # hints off: the default
            code, tokens = _room(api, hints=True)
            assert api.get(f"/api/rooms/{code}").json()["options"]["hints"] is True
            assert "hints" not in api.get(f"/api/rooms/{plain}").json()["options"]
        off = Player(server.ws(plain), plain_tokens[0])
        assert _ask(off, "h0")["code"] == "hints_off"
        off.close()

        players = [Player(server.ws(code), t) for t in tokens]
        watcher = Player(server.ws(code), None)  # type: ignore[arg-type]
        game = _settle(players)
        me, other = game["current"], 1 - game["current"]
        assert _ask(watcher, "h1")["code"] == "forbidden"
        assert _ask(players[other], "h2")["code"] == "not_your_turn"
        before = json.dumps(_settle(players), sort_keys=True)
        hint = _ask(players[me], "h3")
        assert hint["type"] == "hint", hint
        assert hint["action"] in players[me].game()["legal"]
        assert hint["why"]["key"].startswith("hint.why.") and hint["after"] == 0
        assert set(hint) == {"type", "id", "action", "path", "why", "after"}
        assert json.dumps(_settle(players), sort_keys=True) == before  # the game is as it was
        # One at a time: a second ask while the first is being thought is refused. The bot
        # worker is frozen (SIGSTOP) meanwhile, so the first cannot end before the second
        # is read, however loaded the machine.
        assert server.proc is not None
        frozen = children(server.proc.pid)  # the worker (and multiprocessing's tracker)
        assert frozen
        for pid in frozen:
            os.kill(pid, signal.SIGSTOP)
        try:
            players[me].ws.send(json.dumps({"type": "hint", "id": "h4"}))
            assert _ask(players[me], "h5")["code"] == "hint_slow"
        finally:
            for pid in frozen:
                os.kill(pid, signal.SIGCONT)
        again = _answer(players[me], "h4")
        assert (again["action"], again["path"], again["why"]) == (
            hint["action"], hint["path"], hint["why"])  # the same position, the same hint
        watcher.close()
        for p in players:
            p.close()

        assert server.terminate()  # a restart: the hint must survive it
        server.start()
        players = [Player(server.ws(code), t) for t in tokens]
        rng = random.Random(SEED)
        while (game := _settle(players))["phase"] != "over":
            actor = players[game["current"]]
            actor.act(rng.choice(actor.game()["legal"]))
        for p in players:
            p.close()
        with httpx.Client(base_url=server.http, timeout=10) as api:
            found = api.get(f"/r/{code}/replay", follow_redirects=False)
            game_id = found.headers["location"].rsplit("/", 1)[1]
            talk = api.get(f"/api/games/{game_id}/replay").json()["talk"]
        hints = [t for t in talk if t["kind"] == "hint"]
        assert [(h["seat"], h["action"], h["after"], h["why"]) for h in hints] == [
            (me, hint["action"], 0, hint["why"])] * 2
    finally:
        server.stop()

"""A timed-out turn never hangs the game on a real server (issue 25, point 15): the seat's
turn times out, its stand-in starts finishing it, and then the player reconnects or the
server is SIGKILLed and started again. The stand-in must finish the turn, and the player
must be able to play their next one. (tests/rooms/test_timeout_paths.py walks every path
in-process with a fake clock; this is the same promise with real sockets, a real clock, a
real bot worker and a real database.)"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from db.conftest import PG_URL, reset_postgres

from .live import Player, Server

SEED = 5
TURN = 10  # seconds per turn: the clock's minimum (server.rooms.turnclock.TURN_MIN)
BOT_DELAY = 1.0  # each stand-in move takes a second, so the turn is finished over seconds
LATE = 0  # the seat that lets its turn run out


def database(kind: str, tmp_path: Path) -> str:
    if kind == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path}/data/coffee-rush.db"
    reset_postgres(PG_URL)
    return PG_URL


class ClockedTable:
    """Two seats of a room with a 10-second turn clock and no bank, both connected."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.rng = random.Random(SEED)
        with httpx.Client(base_url=server.http, timeout=10) as api:
            created = api.post("/api/rooms", json={
                "players": 2, "clock": {"turn": TURN, "bank": 0}}).json()
            self.code = created["code"]
            self.tokens = [api.post(f"/api/rooms/{self.code}/join", json={"name": name})
                           .json()["seat_token"] for name in ("Ana", "Bo")]
            assert api.post(f"/api/rooms/{self.code}/start",
                            json={"token": created["host_token"]}).is_success
        self.players = [Player(server.ws(self.code), t) for t in self.tokens]

    def seat(self, index: int) -> dict[str, Any]:
        info = httpx.get(f"{self.server.http}/api/rooms/{self.code}", timeout=5).json()
        return info["seats"][index]

    def settle(self) -> dict[str, Any]:
        """Every socket caught up with the newest version; the game as seat 1 sees it."""
        target = max(p.v for p in self.players)
        for p in self.players:
            while p.v < target:
                p.recv()
        return self.players[1].game()

    def play_to_turn_of(self, seat: int) -> None:
        """Random legal actions, played at once, until `seat`'s next turn has just begun
        (its whole turn ahead: upgrade if it can, move, pour, serve)."""
        game = self.settle()
        while True:
            before = game["current"]
            actor = self.players[before]
            actor.act(self.rng.choice(actor.game()["legal"]))
            game = self.settle()
            assert game["phase"] != "over"
            if before != seat and game["current"] == seat and game["phase"] in ("upgrade", "move"):
                return

    def wait_for_stand_in(self) -> None:
        """Until the late seat's turn has timed out and its stand-in plays it."""
        deadline = time.monotonic() + TURN + 10
        while "stand_in" not in self.seat(LATE):
            assert time.monotonic() < deadline, "the turn never timed out"
            time.sleep(0.1)

    def wait_turn_passes(self, seconds: float = 30) -> dict[str, Any]:
        """Until the late seat's turn is over (someone finished it): the game then."""
        watcher = self.players[1 - LATE]
        deadline = time.monotonic() + seconds
        while watcher.game()["current"] == LATE and watcher.game()["phase"] != "over":
            try:
                watcher.recv(timeout=max(0.0, deadline - time.monotonic()))
            except TimeoutError:
                raise AssertionError("nobody finished the timed-out turn: the game hangs") from None
        return watcher.game()

    def reconnect(self, seats: list[int]) -> None:
        for s in seats:
            self.players[s].close()
            self.players[s] = Player(self.server.ws(self.code), self.tokens[s])
            assert self.players[s].first["type"] == "snapshot", self.players[s].first

    def close(self) -> None:
        for p in self.players:
            p.close()


@pytest.mark.parametrize(("path", "kind"), [
    ("reconnect", "postgresql"), ("sigkill", "sqlite")])
def test_a_timed_out_turn_is_finished_and_the_player_plays_on(
        path: str, kind: str, tmp_path: Path) -> None:
    url = database(kind, tmp_path)
    server = Server({
        "DATABASE_URL": url, "BOT_DELAY": str(BOT_DELAY), "TEST_FIXED_SEED": str(SEED),
        "JOURNAL_FALLBACK_PATH": str(tmp_path / "data" / "journal-fallback.jsonl"),
    }, log=tmp_path / "server.log")
    server.start()
    try:
        table = ClockedTable(server)
        table.play_to_turn_of(LATE)
        table.wait_for_stand_in()  # the clock ran out: the stand-in is mid-turn now
        if path == "reconnect":
            table.reconnect([LATE])  # the player is back before the stand-in is done
            assert table.seat(LATE).get("stand_in") == "greedy"
        else:
            server.kill()
            table.close()
            server.start()
            table.reconnect([0, 1])

        game = table.wait_turn_passes()
        assert game["phase"] != "over"
        table.play_to_turn_of(LATE)  # the other seat plays its turn as usual
        late = table.players[LATE]
        assert "stand_in" not in table.seat(LATE)
        late.act(late.game()["legal"][0])  # acknowledged: the seat is the player's again
        table.close()
    finally:
        server.stop()
    assert "Traceback" not in server.errors()

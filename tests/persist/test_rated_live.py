"""Rated games end to end on a real server: two signed-in players and
a greedy bot play a whole game over websockets; the game is stored and rated once, the
final screen's question says how each rating moved, the profiles and the leaderboard show
it. A guest at another table plays by link as before, and that game is not rated. (On
SQLite: both databases' writers rate a game in tests/db/test_ratings.py.)"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.persist.live import Server, play_out

pytestmark = pytest.mark.timeout(120)


def sign_up(server: Server, name: str) -> httpx.Client:
    """A browser of its own (its cookie jar; its Origin, as browsers send on every POST),
    signed in to a new account."""
    client = httpx.Client(base_url=server.http, timeout=10, headers={"origin": server.http})
    made = client.post("/api/accounts", json={"name": name, "password": f"{name}-secret-1"})
    assert made.status_code == 201, made.text
    return client


def ratings_of(api: httpx.Client, code: str) -> dict[str, Any]:
    """What the final screen asks: waits (briefly) for the game to be stored."""
    for _ in range(100):
        answer = api.get(f"/api/rooms/{code}/ratings")
        if answer.status_code == 200:
            return answer.json()
        time.sleep(0.1)
    raise AssertionError(f"the game of {code} was never stored")


def rated_game(server: Server) -> str:
    """Ana and Ben (accounts) and a greedy bot play a whole game; its room code."""
    ana, ben = sign_up(server, "Ana"), sign_up(server, "Ben")
    with httpx.Client(base_url=server.http, timeout=10) as guest:
        made = guest.post("/api/rooms", json={"players": 3}).json()
        code, host = made["code"], made["host_token"]
        tokens = {0: ana.post(f"/api/rooms/{code}/join", json={"name": "x"}).json(),
                  1: ben.post(f"/api/rooms/{code}/join", json={"name": "x"}).json()}
        assert guest.post(f"/api/rooms/{code}/bot", json={
            "token": host, "seat": 2, "level": "greedy"}).is_success
        assert guest.post(f"/api/rooms/{code}/start", json={"token": host}).is_success
        play_out(server.ws(code), {s: t["seat_token"] for s, t in tokens.items()}, 5)
        ratings_of(guest, code)
    ana.close()
    ben.close()
    return code


def test_a_rated_game_moves_the_ratings_and_a_guest_game_does_not(tmp_path: Path) -> None:
    server = Server({"DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/coffee-rush.db",
                     "BOT_WORKERS": "1", "BOT_DELAY": "0",
                     "JOURNAL_FALLBACK_PATH": str(tmp_path / "fallback.jsonl"),
                     "RATED_GAMES_TO_RANK": "1"})
    server.start()
    ana, ben = sign_up(server, "Ana"), sign_up(server, "Ben")
    guest = httpx.Client(base_url=server.http, timeout=10)
    try:
        made = guest.post("/api/rooms", json={"players": 3}).json()
        code, host = made["code"], made["host_token"]
        tokens = {0: ana.post(f"/api/rooms/{code}/join", json={"name": "typed"}).json(),
                  1: ben.post(f"/api/rooms/{code}/join", json={"name": "typed"}).json()}
        info = guest.get(f"/api/rooms/{code}").json()
        assert [s["name"] for s in info["seats"][:2]] == ["Ana", "Ben"]  # the accounts' names
        assert guest.post(f"/api/rooms/{code}/bot", json={
            "token": host, "seat": 2, "level": "greedy"}).is_success
        assert guest.post(f"/api/rooms/{code}/start", json={"token": host}).is_success
        final = play_out(server.ws(code), {s: t["seat_token"] for s, t in tokens.items()}, 5)

        moved = {p["name"]: p for p in ratings_of(guest, code)["players"]}
        assert set(moved) == {"Ana", "Ben"}  # the bot's rating does not move
        places = final["result"]["places"]
        for seat, name in ((0, "Ana"), (1, "Ben")):
            assert moved[name]["after"] - moved[name]["before"] == moved[name]["change"]
            if places[seat] == 1 and places[1 - seat] > 1:
                assert moved[name]["change"] > 0
        profile = guest.get("/api/players/ana").json()
        assert profile["rated_games"] == 1 and profile["rating"]["value"] == moved["Ana"]["after"]
        board = guest.get("/api/players").json()["players"]
        assert sorted(p["name"] for p in board) == ["Ana", "Ben"]

        # A guest's table, by link: played as before, not rated.
        made = guest.post("/api/rooms", json={"players": 2}).json()
        link = made["code"]
        seat = guest.post(f"/api/rooms/{link}/join", json={"name": "Guest"}).json()
        other = ana.post(f"/api/rooms/{link}/join", json={"name": "typed"}).json()
        assert guest.post(f"/api/rooms/{link}/start", json={"token": made["host_token"]}
                          ).is_success
        play_out(server.ws(link), {seat["seat"]: seat["seat_token"],
                                other["seat"]: other["seat_token"]}, 6)
        assert ratings_of(guest, link)["players"] == []
        assert guest.get("/api/players/ana").json()["rated_games"] == 1
    finally:
        for client in (ana, ben, guest):
            client.close()
        server.stop()

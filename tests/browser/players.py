"""Random-acting players over the websocket, for the seats no browser plays."""

from __future__ import annotations

import json
import random
import threading
from typing import Any

import httpx
import jsonpatch
from websockets.sync.client import connect


def join(base_url: str, code: str, name: str) -> tuple[int, str]:
    res = httpx.post(f"{base_url}/api/rooms/{code}/join", json={"name": name, "seat": None})
    res.raise_for_status()
    data = res.json()
    return data["seat"], data["seat_token"]


def bot_table(base_url: str, name: str, **room: Any) -> tuple[str, str]:
    """A 2-player table under way, made over HTTP with `room`'s options: `name` in the
    first free seat (0), a random bot in seat 1; its code and `name`'s seat token."""
    made = httpx.post(f"{base_url}/api/rooms", json={"players": 2, **room})
    made.raise_for_status()
    code, host = made.json()["code"], made.json()["host_token"]
    _, token = join(base_url, code, name)
    httpx.post(f"{base_url}/api/rooms/{code}/bot",
               json={"token": host, "seat": 1, "level": "random"}).raise_for_status()
    httpx.post(f"{base_url}/api/rooms/{code}/start", json={"token": host}).raise_for_status()
    return code, token


class SeatPlayer(threading.Thread):
    """A seat played over the websocket until the game ends: it keeps the seat's view from
    the frames and, at each version where it is this seat's turn, asks `turn` to act. A
    failure is kept in `.failure` for the test to report."""

    def __init__(self, base_url: str, code: str, token: str) -> None:
        super().__init__(daemon=True)
        self.url = base_url.replace("http://", "ws://") + f"/ws/{code}"
        self.token = token
        self.done = threading.Event()
        self.failure: str | None = None
        self.sent_at = -1  # the version the last action was sent at
        # An action sent and not yet answered (ack or error): no other is sent meanwhile. The
        # version may move on without an action (a seat's presence), so `sent_at < v` alone
        # would send the next action before the server answered the last one.
        self.in_flight = False

    def run(self) -> None:
        try:
            self._play()
        except Exception as exc:  # reported by the test through .failure
            self.failure = repr(exc)
        finally:
            self.done.set()

    def _play(self) -> None:
        view: Any = None
        v = -1
        with connect(self.url, open_timeout=10) as ws:
            ws.send(json.dumps({"type": "hello", "token": self.token, "v": None}))
            while not self.done.is_set():
                try:
                    frame = json.loads(ws.recv(timeout=60))
                except TimeoutError:
                    raise AssertionError("no frame for 60 s") from None
                if frame["type"] == "snapshot":
                    view, v = frame["view"], frame["v"]
                elif frame["type"] == "patch":
                    view, v = jsonpatch.apply_patch(view, frame["ops"]), frame["v"]
                elif frame["type"] == "ack":
                    self.in_flight = False
                elif frame["type"] == "error":
                    self.in_flight = False
                    self.refused(frame)
                else:
                    continue
                game = view["game"] if view else None
                if game is None:
                    continue
                if game["phase"] == "over":
                    return
                if (game["current"] == view["you"]["seat"] and self.sent_at < v
                        and not self.in_flight):
                    self.turn(ws, game, v)

    def send(self, ws: Any, action: dict[str, Any], request_id: str, v: int) -> None:
        ws.send(json.dumps({"type": "act", "id": request_id, "v": v, "action": action}))
        self.sent_at = v
        self.in_flight = True

    def refused(self, frame: dict[str, Any]) -> None:
        """The server refused the last action; `stale`: the table moved on, send again."""
        if frame.get("code") == "stale":
            self.sent_at = -1

    def turn(self, ws: Any, game: dict[str, Any], v: int) -> None:
        raise NotImplementedError


class RandomPlayer(SeatPlayer):
    """Plays a seat with seeded random choices among the legal actions until the game ends."""

    def __init__(self, base_url: str, code: str, token: str, seed: int, delay: float = 0) -> None:
        super().__init__(base_url, code, token)
        self.delay = delay  # seconds before each action, so that a watcher sees each state
        self.rng = random.Random(seed)

    def turn(self, ws: Any, game: dict[str, Any], v: int) -> None:
        if game["legal"]:
            action = self.rng.choice(game["legal"])
            if self.delay:
                self.done.wait(self.delay)
            self.send(ws, action, f"r{v}", v)


class ScriptedPlayer(SeatPlayer):
    """Plays a seat's part of a game worked out beforehand with the engine: `actions` are the
    whole game's (seat, action) pairs, and this player sends its seat's, in order, each when
    it is that seat's turn (again if the server says the table moved on meanwhile)."""

    def __init__(self, base_url: str, code: str, token: str, seat: int,
                 actions: list[tuple[int, dict[str, Any]]]) -> None:
        super().__init__(base_url, code, token)
        self.mine = [action for s, action in actions if s == seat]
        self.taken = 0  # actions sent and not refused

    def refused(self, frame: dict[str, Any]) -> None:
        if frame.get("code") != "stale":
            raise AssertionError(f"refused: {frame}")
        super().refused(frame)
        self.taken -= 1  # not taken: sent again

    def turn(self, ws: Any, game: dict[str, Any], v: int) -> None:
        if self.taken < len(self.mine):
            self.send(ws, self.mine[self.taken], f"s{self.taken}", v)
            self.taken += 1

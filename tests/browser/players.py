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


class RandomPlayer(threading.Thread):
    """Plays a seat with seeded random choices among the legal actions until the game ends."""

    def __init__(self, base_url: str, code: str, token: str, seed: int, delay: float = 0) -> None:
        super().__init__(daemon=True)
        self.delay = delay  # seconds before each action, so that a watcher sees each state
        self.url = base_url.replace("http://", "ws://") + f"/ws/{code}"
        self.token = token
        self.rng = random.Random(seed)
        self.done = threading.Event()
        self.failure: str | None = None

    def run(self) -> None:
        try:
            self._play()
        except Exception as exc:  # reported by the test through .failure
            self.failure = repr(exc)
        finally:
            self.done.set()

    def _play(self) -> None:
        view: Any = None
        sent_at = -1
        with connect(self.url, open_timeout=10) as ws:
            ws.send(json.dumps({"type": "hello", "token": self.token, "v": None}))
            v = -1
            while not self.done.is_set():
                try:
                    frame = json.loads(ws.recv(timeout=60))
                except TimeoutError:
                    raise AssertionError("no frame for 60 s") from None
                if frame["type"] == "snapshot":
                    view, v = frame["view"], frame["v"]
                elif frame["type"] == "patch":
                    view = jsonpatch.apply_patch(view, frame["ops"])
                    v = frame["v"]
                elif frame["type"] == "error" and frame.get("code") == "stale":
                    sent_at = -1
                    continue
                else:
                    continue
                game = view["game"]
                if game is None:
                    continue
                if game["phase"] == "over":
                    return
                if game["current"] == view["you"]["seat"] and game["legal"] and sent_at < v:
                    action = self.rng.choice(game["legal"])
                    if self.delay:
                        self.done.wait(self.delay)
                    ws.send(json.dumps({"type": "act", "id": f"r{v}", "v": v, "action": action}))
                    sent_at = v

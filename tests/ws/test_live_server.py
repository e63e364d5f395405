"""Against a real uvicorn process: a whole game over real sockets, then a graceful restart."""

from __future__ import annotations

import json
import random
import signal

import httpx
import jsonpatch
from websockets.sync.client import connect


class Client:
    def __init__(self, url: str, token: str | None) -> None:
        self.ws = connect(url, open_timeout=5).__enter__()  # closed by the test
        self.ws.send(json.dumps({"type": "hello", "token": token}))
        self.view: dict | None = None
        self.v = -1

    def recv(self) -> dict:
        frame = json.loads(self.ws.recv(timeout=5))
        if frame["type"] == "snapshot":
            self.view, self.v = frame["view"], frame["v"]
        elif frame["type"] == "patch":
            assert frame["v"] == self.v + 1
            self.view = jsonpatch.apply_patch(self.view, frame["ops"])
            self.v = frame["v"]
        return frame


def test_a_game_and_a_graceful_restart(live_server):
    with httpx.Client(base_url=live_server.http, timeout=5) as api:
        _a_game_and_a_graceful_restart(live_server, api)


def _a_game_and_a_graceful_restart(live_server, api: httpx.Client) -> None:
    created = api.post("/api/rooms", json={"players": 2}).json()
    code = created["code"]
    tokens = [api.post(f"/api/rooms/{code}/join", json={"name": n}).json()["seat_token"]
              for n in ("Ana", "Bo")]
    url = f"{live_server.ws}/ws/{code}"
    seats = [Client(url, token) for token in tokens]
    watcher = Client(url, None)
    assert api.post(f"/api/rooms/{code}/start", json={"token": created["host_token"]}).is_success
    clients = [*seats, watcher]
    rng = random.Random(5)

    def settle() -> None:  # everyone has the game and the same version
        while True:
            target = max(c.v for c in clients)
            for c in clients:
                while c.v < target or c.view is None or c.view["game"] is None:
                    c.recv()
            if all(c.v == target for c in clients):
                return

    settle()
    while watcher.view["game"]["phase"] != "over":
        current = watcher.view["game"]["current"]
        actor = seats[current]
        actor.ws.send(json.dumps({"type": "act", "id": actor.v, "v": actor.v,
                                  "action": rng.choice(actor.view["game"]["legal"])}))
        while actor.recv()["type"] != "ack":
            pass
        settle()
        assert seats[0].view["game"]["players"] == watcher.view["game"]["players"]
    assert api.get(f"/api/rooms/{code}").json()["status"] == "finished"

    live_server.proc.send_signal(signal.SIGTERM)
    for c in clients:
        frames = []
        while not frames or frames[-1]["type"] != "bye":
            frames.append(c.recv())
        assert frames[-1] == {"type": "bye", "reason": "restarting"}
        c.ws.close()
    assert live_server.proc.wait(10) in (0, -signal.SIGTERM)  # uvicorn re-raises the signal

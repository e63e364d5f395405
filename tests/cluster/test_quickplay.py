"""Quick play in a real cluster (HAProxy, Redis, PostgreSQL, two `python -m server`
instances): players who press Play now on different instances sit at one table, which the
proxy then serves; a player who closes the tab leaves the queue within seconds, as every
instance's list shows."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from .harness import Cluster


def lobby(url: str) -> ClientConnection:
    return connect(url.replace("http", "ws", 1) + "/lobby/socket", open_timeout=10)


def until(socket: ClientConnection, kind: str, timeout: float = 15.0,
          where: Any = None) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while True:
        frame = json.loads(socket.recv(timeout=max(0.01, end - time.monotonic())))
        if frame["type"] == kind and (where is None or where(frame)):
            return frame
        assert frame["type"] != "error", frame


def play(socket: ClientConnection, name: str, size: int) -> None:
    socket.send(json.dumps({"type": "play", "size": size, "name": name}))
    until(socket, "queued")


def test_players_on_two_instances_sit_at_one_table(cluster) -> None:  # noqa: ANN001
    c: Cluster = cluster(2)
    one, two = c.instances["i1"].url, c.instances["i2"].url
    with lobby(one) as ann, lobby(two) as bo, lobby(two) as watcher:
        play(ann, "Ann", 2)
        # the other instance lists Ann's seek (from the shared database), live
        listed = until(watcher, "lobby", where=lambda f: f["seeks"])
        assert listed["seeks"][0]["size"] == 2 and listed["seeks"][0]["ratings"] == [None]
        play(bo, "Bo", 2)
        seated = [until(ann, "seated"), until(bo, "seated")]
    assert seated[0]["code"] == seated[1]["code"]
    assert sorted(f["seat"] for f in seated) == [0, 1]
    # the table is reached through the proxy, wherever it was opened
    info = httpx.get(f"{c.proxy_url}/api/rooms/{seated[0]['code']}", timeout=10).json()
    assert info["status"] == "playing"
    assert sorted(s["name"] for s in info["seats"]) == ["Ann", "Bo"]
    for frame in seated:
        with connect(c.proxy_ws(frame["code"]), open_timeout=10) as table:
            table.send(json.dumps({"type": "hello", "token": frame["seat_token"]}))
            snapshot = json.loads(table.recv(timeout=10))
            assert snapshot["type"] == "snapshot"
            assert snapshot["view"]["you"]["seat"] == frame["seat"]  # the token opens that seat

    # A player who closes the tab leaves the queue within seconds (one cluster for both:
    # starting one is most of this test's time).
    with lobby(c.instances["i2"].url) as watcher:
        with lobby(c.instances["i1"].url) as gone:
            play(gone, "Gus", 4)
            until(watcher, "lobby", where=lambda f: len(f["seeks"]) == 1)
        start = time.monotonic()
        until(watcher, "lobby", timeout=10, where=lambda f: not f["seeks"])
        assert time.monotonic() - start < 10

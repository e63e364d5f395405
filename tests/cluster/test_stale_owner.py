"""An owner that wakes from a freeze after another instance claimed its room (which then
died too): it lets the room go at once (bye "moved" to its sockets), never takes its lease
back, acknowledges and broadcasts nothing, and the room plays on wherever it is asked for.
Real instances, SIGSTOP/SIGCONT/SIGKILL, a real Redis and PostgreSQL (issue 25, 1 and 3)."""

from __future__ import annotations

import signal
import time
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed

from tests.persist.live import Player, Table

from .conftest import At
from .harness import TEST_SETTINGS, Cluster
from .test_ownership import PLAYERS, finish_and_check, health, in_sync

TTL = float(TEST_SETTINGS["LEASE_TTL"])


def until_closed(player: Player, timeout: float = 10) -> list[dict[str, Any]]:
    """Every frame the socket gets until it is closed, or until `timeout`."""
    frames = []
    deadline = time.monotonic() + timeout
    try:
        while True:
            frames.append(player.recv(timeout=max(0.01, deadline - time.monotonic())))
    except (ConnectionClosed, TimeoutError):
        return frames


def steal_while_frozen(c: Cluster, code: str) -> None:
    """i1 (the owner) freezes past its lease; i2 claims the room, then dies holding it."""
    c.kill("i1", signal.SIGSTOP)
    time.sleep(1.5 * TTL)
    info = httpx.get(f"{c.instances['i2'].url}/api/rooms/{code}", timeout=10)
    assert info.status_code == 200 and info.headers["x-instance"] == "i2"
    c.kill("i2", signal.SIGKILL)
    time.sleep(TTL + 0.5)  # i2's lease runs out: nobody holds the room now


def test_a_woken_owner_does_not_take_back_a_lease_it_lost(cluster) -> None:
    c: Cluster = cluster(2)
    i1 = c.instances["i1"]
    table = Table(At(i1.url), PLAYERS, seed=11)  # type: ignore[arg-type]
    table.play(4)
    steal_while_frozen(c, table.code)
    c.kill("i1", signal.SIGCONT)
    # Nothing is written (no clock, no bots): only the lease renewal can notice. It must
    # not take the free lease back under the old epoch; it lets the room go.
    for p in table.players:
        frames = until_closed(p)
        assert frames[-1:] == [{"type": "bye", "reason": "moved"}], frames
    assert health(i1.url)["rooms"] == 0
    table.connect(At(i1.url))  # type: ignore[arg-type]  # claimed again, under a new epoch
    assert in_sync(table)
    finish_and_check(c, table)


def test_a_woken_stale_owner_acknowledges_and_broadcasts_nothing(cluster) -> None:
    c: Cluster = cluster(2)
    i1 = c.instances["i1"]
    api = httpx.Client(base_url=i1.url, timeout=10)
    made = api.post("/api/rooms", json={"players": PLAYERS, "clock": {"turn": 10, "bank": 0}})
    code, host = made.json()["code"], made.json()["host_token"]
    tokens = [api.post(f"/api/rooms/{code}/join", json={"name": f"P{s}"}).json()["seat_token"]
              for s in range(PLAYERS)]
    players = [Player(At(i1.url).ws(code), t) for t in tokens]  # type: ignore[arg-type]
    assert api.post(f"/api/rooms/{code}/start", json={"token": host}).is_success
    started = time.monotonic()  # the first turn's 10 s run from about here
    while players[0].view is None or players[0].view["game"] is None:
        players[0].recv()
    seat = players[0].game()["current"]
    action = players[0].game()["legal"][0]
    steal_while_frozen(c, code)
    time.sleep(max(0.0, started + 10.5 - time.monotonic()))  # the turn ran out meanwhile
    # Read by i1 when it wakes, with its timeout due: an act, a chat line from each seat.
    for p in players:
        p.ws.send('{"type": "chat", "id": "c1", "text": "still there?"}')
    players[seat].send_act(action)
    c.kill("i1", signal.SIGCONT)
    for p in players:
        frames = until_closed(p)
        assert frames[-1:] == [{"type": "bye", "reason": "moved"}], frames
        assert not [f for f in frames if f["type"] in ("ack", "chat")], frames
        events = [e for f in frames if f["type"] == "patch" for e in f["events"]]
        assert not [e for e in events if e["type"] == "timeout"], frames
    api.close()
    # The room plays on from what was durable: the act and the chat lines are not in it.
    fresh = Player(At(i1.url).ws(code), tokens[seat])  # type: ignore[arg-type]
    assert fresh.first["type"] == "snapshot" and fresh.game()["current"] == seat
    fresh.close()

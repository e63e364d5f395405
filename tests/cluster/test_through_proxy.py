"""The whole cluster as players meet it: real HAProxy in front of two instances, owners
killed (SIGKILL) again and again mid-game, every instance restarted in turn (SIGTERM)."""

from __future__ import annotations

import signal
import time
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tests.persist.live import Player, Table, stored_game

from .harness import Cluster

PLAYERS = 2


class ThroughProxy:
    """What tests.persist.live.Table needs of a server, pointing at the proxy."""

    def __init__(self, cluster: Cluster) -> None:
        self.http = cluster.proxy_url
        self.cluster = cluster

    def ws(self, code: str) -> str:
        return self.cluster.proxy_ws(code)


def reconnect(table: Table, proxy: ThroughProxy) -> None:
    """Reopen every seat's socket through the proxy; a room still changing hands answers 503 at
    the handshake, and the client tries again (as the browser does, with backoff)."""
    table.close()
    for _ in range(60):
        try:
            table.connect(proxy)  # type: ignore[arg-type]
            return
        except (InvalidStatus, ConnectionClosed, OSError):
            time.sleep(0.25)
    raise AssertionError("the table never came back")


def drain(player: Player) -> tuple[list[dict[str, Any]], bool]:
    """The frames a socket still had for us (applied to its view), and whether it closed.
    Called once the stopped instance has exited, so whatever it sent, and its close, are
    here already: a short wait tells an open socket (on the other instance) apart."""
    frames = []
    try:
        while True:
            frames.append(player.recv(timeout=0.25))
    except ConnectionClosed:
        return frames, True
    except TimeoutError:
        return frames, False


def owner(cluster: Cluster) -> str:
    owners = [name for name, inst in cluster.instances.items() if inst.alive
              and httpx.get(f"{inst.url}/healthz", timeout=10).json()["rooms"] > 0]
    assert len(owners) == 1, owners
    return owners[0]


# Each instance is killed twice, the second time after its own restart: every kill after
# that repeats a case already seen, at ~5 s a kill (bench/cluster.py's smoke run, also in
# this suite, kills two more owners).
KILLS = 4


def test_owners_killed_again_and_again_mid_game_and_the_game_finishes_with_every_action(
    cluster,
) -> None:
    c: Cluster = cluster(2)
    proxy = ThroughProxy(c)
    table = Table(proxy, PLAYERS, seed=11)  # type: ignore[arg-type]
    table.play(4)
    kills = 0
    while kills < KILLS and table.players[0].game()["phase"] != "over":
        victim = owner(c)
        c.kill(victim, signal.SIGKILL)
        kills += 1
        reconnect(table, proxy)  # the survivor claims the room once the lease runs out
        c.restart(victim)
        table.play(3)
    assert kills == KILLS
    table.play()
    saved = stored_game(c.database_url, table.code)
    assert saved is not None
    assert [list(a) for a in saved.actions] == [[s, a] for s, a in table.acked]


def test_a_rolling_restart_costs_players_a_reconnect_and_nothing_else(cluster) -> None:
    c: Cluster = cluster(2)
    proxy = ThroughProxy(c)
    tables = [Table(proxy, PLAYERS, seed=s) for s in (21, 22, 23)]  # type: ignore[arg-type]
    for table in tables:
        table.play(4)
    for name in list(c.instances):
        c.kill(name, signal.SIGTERM)  # hands its rooms over, then exits
        for table in tables:
            closed = False
            for p in table.players:  # whoever was there was told why, never given an error
                frames, gone = drain(p)
                assert not [f for f in frames if f["type"] == "error"], frames
                assert all(f["reason"] == "moved" for f in frames if f["type"] == "bye"), frames
                closed = closed or gone
            if closed:
                reconnect(table, proxy)
            table.play(3)
        c.restart(name)
    for table in tables:
        table.play()
        saved = stored_game(c.database_url, table.code)
        assert saved is not None
        assert [list(a) for a in saved.actions] == [[s, a] for s, a in table.acked]


def test_a_code_written_another_way_is_sent_to_its_canonical_address(cluster) -> None:
    c: Cluster = cluster(2)
    made = httpx.post(f"{c.proxy_url}/api/rooms", json={"players": 2}).json()
    code = made["code"]
    answer = httpx.get(f"{c.proxy_url}/r/{code.lower()}", timeout=10)
    assert answer.status_code == 308 and answer.headers["location"] == f"/r/{code}"
    homes = {c.route(f"/r/{code}")[0].name for _ in range(5)}
    assert len(homes) == 1  # one instance serves every request for the room
    assert httpx.get(f"{c.proxy_url}/r/{code}", timeout=10).headers["x-instance"] in homes

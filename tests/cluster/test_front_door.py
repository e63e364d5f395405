"""The front door (HAProxy from deploy/haproxy.cfg) as players meet it when an instance
freezes or restarts (issue 25, points 2 and 4).

A SIGSTOPped instance's kernel still accepts connections, so only an active health check
sees it: within LEASE_TTL and a few seconds every room it held is playable through the proxy
on another instance. A restart moves each room once: away, and it stays there (a stick
table), never bouncing seats between instances."""

from __future__ import annotations

import contextlib
import signal
import time
from collections.abc import Iterator

import httpx

from tests.persist.live import Table

from .harness import Cluster
from .test_through_proxy import PLAYERS, ThroughProxy, drain, reconnect

ROOMS = 4


@contextlib.contextmanager
def tables_on(c: Cluster, proxy: ThroughProxy, name: str, count: int) -> Iterator[list[Table]]:
    """`count` tables whose rooms the proxy routes to instance `name` (made until enough),
    for the block; every socket and client they opened is closed after it, whatever
    happens (one left open fails the worker's next test with a ResourceWarning)."""
    tables: list[Table] = []
    try:
        for seed in range(100, 140):
            tables.append(Table(proxy, PLAYERS, seed=seed))  # type: ignore[arg-type]
            if c.route(f"/api/rooms/{tables[-1].code}")[0].name != name:
                tables.pop().close()
            elif len(tables) == count:
                break
        else:
            raise AssertionError(f"fewer than {count} rooms landed on {name}")
        yield tables
    finally:
        for table in tables:
            table.close()


def test_a_frozen_instance_gives_up_its_rooms_through_the_front_door(cluster) -> None:
    c: Cluster = cluster(2)
    proxy = ThroughProxy(c)
    with tables_on(c, proxy, "i1", 2) as tables:
        for table in tables:
            table.play(2)
        c.kill("i1", signal.SIGSTOP)
        frozen = time.monotonic()
        try:
            for table in tables:
                reconnect(table, proxy)  # the socket to the frozen one is cut; the client retries
                table.play(2)  # a move answered over the websocket: the room is playable
                home, answer = c.route(f"/api/rooms/{table.code}")
                assert answer.status_code == 200 and home.name == "i2"
            # LEASE_TTL is 2 s in the harness; without active checks this takes > 60 s (504s).
            assert time.monotonic() - frozen < 2 + 10
        finally:
            c.kill("i1", signal.SIGCONT)


def test_a_restart_moves_each_room_once(cluster) -> None:
    c: Cluster = cluster(2)
    proxy = ThroughProxy(c)
    with tables_on(c, proxy, "i1", ROOMS) as tables:
        restarted_once(c, proxy, tables)


def restarted_once(c: Cluster, proxy: ThroughProxy, tables: list[Table]) -> None:
    """Each table's room moves once when i1 restarts: away, and it stays there."""
    for table in tables:
        table.play(2)
    moved = dict.fromkeys((t.code for t in tables), 0)

    def follow() -> None:
        """Each table reconnects when told bye `moved` (or cut off), as the browser does."""
        for table in tables:
            byes = []
            closed = False
            for p in table.players:
                frames, gone = drain(p)
                byes += [f for f in frames if f["type"] == "bye"]
                closed = closed or gone
            assert all(f["reason"] == "moved" for f in byes), byes
            if byes or closed:
                moved[table.code] += 1
                reconnect(table, proxy)
            table.play(1)

    c.kill("i1", signal.SIGTERM)  # hands its rooms over, then exits
    follow()
    c.restart("i1")
    deadline = time.monotonic() + 6  # the restarted one is back in the ring meanwhile
    while time.monotonic() < deadline:
        follow()
    for table in tables:  # they stay where they moved: no second trip back
        assert c.route(f"/api/rooms/{table.code}")[0].name == "i2"
    assert all(n == 1 for n in moved.values()), moved


def test_the_health_check_passes_where_allowed_hosts_names_the_public_site(cluster) -> None:
    # The proxy's check asks for /healthz with Host: localhost; a host that sets
    # ALLOWED_HOSTS to its domain must not see every instance taken out of the ring (503).
    c: Cluster = cluster(2, settings={"ALLOWED_HOSTS": "games.example"})
    time.sleep(3)  # two check intervals and then some: a failing check has taken effect
    for path in ["/healthz", "/api/rooms", "/r/K7QXPM2A"]:
        answer = httpx.get(c.proxy_url + path, headers={"host": "games.example"}, timeout=10)
        assert answer.status_code != 503, (path, answer.text)
    assert httpx.get(c.proxy_url + "/api/rooms", timeout=10).status_code == 400  # still guarded

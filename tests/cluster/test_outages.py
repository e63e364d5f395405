"""Redis or PostgreSQL going away: nothing acknowledged is lost, never two owners, and
play recovers on its own when the service is back."""

from __future__ import annotations

import signal
import time
from collections.abc import Callable

import httpx
import pytest
from sqlalchemy.engine import make_url
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.persist.live import Table, stored_game
from tests.persist.test_outage import ProxyThread

from .conftest import At
from .harness import TEST_SETTINGS, Cluster, create_database, drop_database
from .test_ownership import PLAYERS, finish_and_check, health

TTL = float(TEST_SETTINGS["LEASE_TTL"])


def eventually(check: Callable[[], bool], tries: int = 300, pause: float = 0.05) -> None:
    for _ in range(tries):
        if check():
            return
        time.sleep(pause)
    raise AssertionError("the condition never held")


def test_without_redis_owners_play_on_and_no_room_changes_hands(cluster) -> None:
    c: Cluster = cluster(2)
    i1, i2 = c.instances["i1"], c.instances["i2"]
    table = Table(At(i1.url), PLAYERS, seed=6)  # type: ignore[arg-type]
    table.play(4)
    c.stop_redis()
    table.play(4)  # the owner plays on: PostgreSQL's epoch, not Redis, fences its writes
    eventually(lambda: health(i1.url)["redis"] == "unreachable")
    assert health(i1.url)["status"] == "degraded"
    # Nobody can take the room over meanwhile: a request elsewhere is refused, not served.
    refused = httpx.get(f"{i2.url}/api/rooms/{table.code}", timeout=10)
    assert refused.status_code == 503 and refused.json()["error"]["code"] == "unavailable"
    # A socket there is closed 1013 "retry later" (not refused 403 "forbidden"), the code
    # as its reason.
    with connect(At(i2.url).ws(table.code), open_timeout=10) as ws, \
            pytest.raises(ConnectionClosed):
        ws.recv(timeout=10)
    assert ws.close_code == 1013 and ws.close_reason == "unavailable"
    c.start_redis()  # back, and empty: the owner takes its lease again
    table.play(4)
    eventually(lambda: health(i1.url)["redis"] == "ok")
    assert health(i1.url)["rooms"] == 1
    # The room moves on request again (a 503 means "changing hands, retry", as documented).
    eventually(lambda: httpx.get(f"{i2.url}/api/rooms/{table.code}", timeout=10
                                 ).status_code == 200, tries=30, pause=0.5)
    assert health(i2.url)["rooms"] == 1
    table.connect(At(i2.url))  # type: ignore[arg-type]
    finish_and_check(c, table)


def test_without_postgresql_play_pauses_with_a_clear_error_and_resumes(cluster) -> None:
    database = create_database()
    url = make_url(database)
    proxy = ProxyThread(url.host or "127.0.0.1", url.port or 5432)
    proxy.run(proxy.proxy.open())
    try:
        c: Cluster = cluster(2, database_url=url.set(port=proxy.proxy.port).render_as_string(
            hide_password=False))
        i1, i2 = c.instances["i1"], c.instances["i2"]
        table = Table(At(i1.url), PLAYERS, seed=7)  # type: ignore[arg-type]
        table.play(4)
        proxy.run(proxy.proxy.shut())
        seat, action = table.choose()
        player = table.players[seat]
        player.send_act(action)
        while (frame := player.recv())["type"] != "error":
            assert frame["type"] != "ack", frame
        assert frame["code"] == "unavailable"  # the table says so; nothing was applied
        assert health(i1.url)["status"] == "degraded"
        # A request for the room elsewhere cannot load it now: it is refused, and the owner
        # keeps the room and its sockets (it is not asked to let go of it first).
        refused = httpx.get(f"{i2.url}/api/rooms/{table.code}", timeout=30)
        assert refused.status_code == 503 and refused.json()["error"]["code"] == "unavailable"
        assert health(i1.url)["rooms"] == 1 and health(i2.url)["rooms"] == 0
        proxy.run(proxy.proxy.open())
        for _ in range(50):  # the first write after the outage may still meet a dead socket
            player.send_act(action)
            while (frame := player.recv())["type"] not in ("ack", "error"):
                pass
            if frame["type"] == "ack":
                break
            assert frame["code"] == "unavailable", frame
            time.sleep(0.1)
        table.acked.append((seat, action))
        table.current()
        assert health(i1.url)["status"] == "ok"
        table.play()
        saved = stored_game(database, table.code)
        assert saved is not None
        assert [list(a) for a in saved.actions] == [[s, a] for s, a in table.acked]
    finally:
        proxy.close()
        c.close()
        drop_database(database)


def test_a_frozen_redis_costs_a_request_little_and_health_says_so(cluster) -> None:
    c: Cluster = cluster(2)
    i1, i2 = c.instances["i1"], c.instances["i2"]
    table = Table(At(i1.url), PLAYERS, seed=8)  # type: ignore[arg-type]
    assert c.redis_proc is not None
    c.redis_proc.send_signal(signal.SIGSTOP)  # Redis keeps its sockets but answers nothing
    try:
        frozen_at = time.monotonic()
        eventually(lambda: health(i1.url)["redis"] == "unreachable", tries=60)
        # Generous: the renewal (every LEASE_TTL/3, 2/3 s here) gives up within one more.
        assert time.monotonic() - frozen_at < 2 * TTL
        table.play(2)  # the owner plays on
        for request in (lambda: httpx.post(f"{i2.url}/api/rooms", json={"players": 2},
                                           timeout=30),
                        lambda: httpx.get(f"{i2.url}/api/rooms/{table.code}", timeout=30)):
            asked = time.monotonic()
            answer = request()
            assert answer.status_code == 503, answer.text
            assert time.monotonic() - asked < TTL, answer.text  # not a hang per request
        asked = time.monotonic()
        assert httpx.get(f"{i2.url}/api/rooms", timeout=30).status_code == 200  # its own
        assert time.monotonic() - asked < TTL
    finally:
        c.redis_proc.send_signal(signal.SIGCONT)
    eventually(lambda: health(i1.url)["redis"] == "ok")
    finish_and_check(c, table)

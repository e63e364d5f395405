"""Redis or PostgreSQL going away: nothing acknowledged is lost, never two owners, and
play recovers on its own when the service is back."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx
from sqlalchemy.engine import make_url

from tests.persist.live import Table, stored_game

from .conftest import Instance, RedisServer, ThreadedProxy
from .test_ownership import PLAYERS, check_journal


def health(instance: Instance) -> dict[str, Any]:
    return httpx.get(f"{instance.http}/healthz", timeout=10).json()


def eventually(check: Callable[[], bool], tries: int = 200, pause: float = 0.05) -> None:
    for _ in range(tries):
        if check():
            return
        time.sleep(pause)
    raise AssertionError("the condition never held")


def test_without_redis_owners_play_on_and_no_room_changes_hands(
    instances: list[Instance], redis_server: RedisServer
) -> None:
    i1, i2 = instances
    table = Table(i1, PLAYERS, seed=6)
    table.play(4)
    redis_server.stop()
    table.play(4)  # the owner plays on: PostgreSQL's epoch, not Redis, fences its writes
    eventually(lambda: health(i1)["redis"] == "unreachable")
    assert health(i1)["status"] == "degraded"
    # Nobody can take the room over meanwhile: a request elsewhere is refused, not served.
    refused = httpx.get(f"{i2.http}/api/rooms/{table.code}", timeout=10)
    assert refused.status_code == 503 and refused.json()["error"]["code"] == "unavailable"
    redis_server.start()  # back, and empty: the owner takes its lease again
    table.play(4)
    eventually(lambda: health(i1)["redis"] == "ok")
    assert health(i1)["rooms"] == 1
    moved = httpx.get(f"{i2.http}/api/rooms/{table.code}", timeout=10)
    assert moved.status_code == 200 and moved.headers["x-instance"] == "i2"
    table.connect(i2)
    check_journal(i2, table)


def test_without_postgresql_play_pauses_with_a_clear_error_and_resumes(
    cluster_env: dict[str, str],
) -> None:
    url = make_url(cluster_env["DATABASE_URL"])
    proxy = ThreadedProxy(url.host or "127.0.0.1", url.port or 5432)
    through_proxy = url.set(port=proxy.port).render_as_string(hide_password=False)
    instance = Instance("i1", {**cluster_env, "DATABASE_URL": through_proxy})
    try:
        instance.start()
        table = Table(instance, PLAYERS, seed=7)
        table.play(4)
        proxy.shut()
        seat, action = table.choose()
        player = table.players[seat]
        player.send_act(action)
        while (frame := player.recv())["type"] != "error":
            assert frame["type"] != "ack", frame
        assert frame["code"] == "unavailable"
        assert health(instance)["status"] == "degraded"
        proxy.open()
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
        assert health(instance)["status"] == "ok"
        table.play()
        saved = stored_game(cluster_env["DATABASE_URL"], table.code)
        assert saved is not None
        assert [list(a) for a in saved.actions] == [[s, a] for s, a in table.acked]
    finally:
        instance.stop()
        proxy.close()

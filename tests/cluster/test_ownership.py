"""Exactly one owner per room: claims, handoffs, failover after SIGKILL, fencing after
SIGSTOP — on real instances, a real Redis and a real PostgreSQL."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from tests.persist.live import Player, Table, bots_game, replay, seat_views, stored_game
from tests.serving import ROOT

from .conftest import At
from .harness import TEST_SETTINGS, Cluster

SEED, PLAYERS = int(TEST_SETTINGS["TEST_FIXED_SEED"]), 2


def health(url: str) -> dict[str, Any]:
    return httpx.get(f"{url}/healthz", timeout=10).json()


def finish_and_check(c: Cluster, table: Table) -> None:
    """Play to the end: the game as stored is exactly the acknowledged actions, in order."""
    table.play()
    saved = stored_game(c.database_url, table.code)
    assert saved is not None
    assert [list(a) for a in saved.actions] == [[s, a] for s, a in table.acked]


def in_sync(table: Table) -> bool:
    return [p.game() for p in table.players] == seat_views(replay(SEED, PLAYERS, table.acked))


def test_a_room_moves_to_the_instance_that_is_asked_for_it(cluster) -> None:
    c: Cluster = cluster(2)
    i1, i2 = c.instances["i1"], c.instances["i2"]
    table = Table(At(i1.url), PLAYERS, seed=1)  # type: ignore[arg-type]
    table.play(6)
    assert health(i1.url)["rooms"] == 1
    # A request for the room reaches i2 (as the proxy would send it): i2 claims it, and the
    # sockets on i1 are told to reconnect.
    info = httpx.get(f"{i2.url}/api/rooms/{table.code}", timeout=10)
    assert info.status_code == 200 and info.headers["x-instance"] == "i2"
    for p in table.players:
        with pytest.raises(ConnectionClosed):
            while True:
                frame = p.recv()
                if frame["type"] == "bye":
                    assert frame["reason"] == "moved"
    assert health(i1.url)["rooms"] == 0 and health(i2.url)["rooms"] == 1
    table.connect(At(i2.url))  # type: ignore[arg-type]
    assert in_sync(table)
    finish_and_check(c, table)
    # A finished game stays on show (FINISHED_ROOM_TTL) wherever it is asked for.
    info = httpx.get(f"{i1.url}/api/rooms/{table.code}", timeout=10)
    assert info.status_code == 200 and info.json()["status"] == "finished"
    assert info.headers["x-instance"] == "i1"


def test_an_owner_killed_mid_game_loses_nothing(cluster) -> None:
    c: Cluster = cluster(2)
    i1, i2 = c.instances["i1"], c.instances["i2"]
    table = Table(At(i1.url), PLAYERS, seed=2)  # type: ignore[arg-type]
    table.play(10)
    c.kill("i1", signal.SIGKILL)
    table.close()
    table.connect(At(i2.url))  # type: ignore[arg-type]  # i2 claims once the lease ran out
    assert in_sync(table)
    table.play(6)
    c.restart("i1")  # back: the room stays where it is until someone asks i1 for it
    assert health(i2.url)["rooms"] == 1
    table.connect(At(i1.url))  # type: ignore[arg-type]
    finish_and_check(c, table)


def test_a_frozen_owner_gets_nothing_acknowledged_after_losing_its_lease(cluster) -> None:
    c: Cluster = cluster(2)
    i1, i2 = c.instances["i1"], c.instances["i2"]
    table = Table(At(i1.url), PLAYERS, seed=3)  # type: ignore[arg-type]
    table.play(8)
    frozen = table.players
    c.kill("i1", signal.SIGSTOP)
    # While i1 sleeps past its lease, i2 takes the room over and play goes on there.
    seat, action = table.choose()
    table.players = []
    table.connect(At(i2.url))  # type: ignore[arg-type]
    table.play(5)
    # An action sent to the frozen owner, for the version it last showed, is read when it
    # wakes up: it must not be acknowledged (the epoch in PostgreSQL fences its write).
    frozen[seat].send_act(action)
    c.kill("i1", signal.SIGCONT)
    answers = []
    try:
        while True:
            answers.append(frozen[seat].recv())
    except (ConnectionClosed, TimeoutError):
        pass
    assert not any(a["type"] == "ack" for a in answers), answers
    assert any(a["type"] == "error" or a == {"type": "bye", "reason": "moved"}
               for a in answers), answers
    for p in frozen:
        p.close()
    assert health(i1.url)["rooms"] == 0
    finish_and_check(c, table)


def test_a_stopping_instance_hands_its_rooms_over(cluster) -> None:
    c: Cluster = cluster(2)
    i1, i2 = c.instances["i1"], c.instances["i2"]
    table = Table(At(i1.url), PLAYERS, seed=4)  # type: ignore[arg-type]
    table.play(3)
    last = table.players[0].v
    c.kill("i1", signal.SIGTERM)  # hands the room over before exiting
    for p in table.players:
        with pytest.raises(ConnectionClosed):
            while True:
                assert p.recv()["type"] != "error"
    fresh = Player(At(i2.url).ws(table.code), table.tokens[0], last)
    assert fresh.first["type"] == "snapshot" and fresh.v != last
    fresh.close()
    table.connect(At(i2.url))  # type: ignore[arg-type]
    finish_and_check(c, table)


def test_bots_play_on_after_their_owner_dies_with_nobody_connected(cluster) -> None:
    c: Cluster = cluster(2, settings={"BOT_WORKERS": "1", "BOT_DELAY": "0.05"})
    i1 = c.instances["i1"]
    code = bots_game(i1.url)
    watcher = Player(At(i1.url).ws(code), None)  # type: ignore[arg-type]
    while watcher.game()["turn"] < 3:
        watcher.recv()
    c.kill("i1", signal.SIGKILL)
    watcher.close()
    # Nobody asks for the room: i2 adopts it once its lease has been gone a while, and its
    # bots finish the game.
    for _ in range(600):
        saved = stored_game(c.database_url, code)
        if saved is not None:
            break
        time.sleep(0.1)
    else:
        pytest.fail("the bots' game never finished after its owner died")
    game = replay(SEED, 2, [tuple(a) for a in saved.actions])  # type: ignore[misc]
    assert game.phase == "over" and game.result["scores"] == saved.result["scores"]


def test_cluster_mode_refuses_sqlite_in_one_line(tmp_path) -> None:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "REDIS_URL": "redis://127.0.0.1:1",
           "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/x.db", "PORT": "1"}
    done = subprocess.run([sys.executable, "-m", "server"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "PostgreSQL" in lines[0], done.stderr


def test_one_lobby_and_one_creation_limit_for_the_cluster(cluster) -> None:
    c: Cluster = cluster(2, settings={"ROOM_CREATE_RATE": "10"})
    i1, i2 = c.instances["i1"], c.instances["i2"]
    made = httpx.post(f"{i1.url}/api/rooms", json={"players": 3, "public": True}).json()
    for _ in range(100):
        listing = httpx.get(f"{i2.url}/api/rooms").json()
        if any(r["code"] == made["code"] for r in listing["open"]):
            break
        time.sleep(0.05)
    else:
        pytest.fail(f"room {made['code']} of i1 never listed on i2")
    # ROOM_CREATE_RATE (10 a minute) counts every instance's rooms for one address.
    answers = [httpx.post(f"{i.url}/api/rooms", json={"players": 2}).status_code
               for _ in range(5) for i in (i1, i2)]
    assert answers.count(201) == 9 and answers[-1] == 429, answers
    assert health(i2.url)["instance"] == "i2" and health(i2.url)["mode"] == "cluster"

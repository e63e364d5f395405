"""Exactly one owner per room: claims, handoffs, failover after SIGKILL, fencing after
SIGSTOP — on real instances, a real Redis and a real PostgreSQL."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from tests.persist.live import ROOT, Player, Table, replay, seat_views, stored_game

from .conftest import Instance

SEED, PLAYERS = 5, 2


def check_journal(instance: Instance, table: Table) -> None:
    """The game as stored is exactly the acknowledged actions, in order."""
    table.play()
    saved = stored_game(instance.env["DATABASE_URL"], table.code)
    assert saved is not None
    assert [list(a) for a in saved.actions] == [[s, a] for s, a in table.acked]


def test_a_room_moves_to_the_instance_that_is_asked_for_it(instances: list[Instance]) -> None:
    i1, i2 = instances
    table = Table(i1, PLAYERS, seed=1)
    table.play(6)
    assert httpx.get(f"{i1.http}/healthz").json()["rooms"] == 1
    # A request for the room reaches i2 (as the proxy would send it): i2 claims it, and the
    # sockets on i1 are told to reconnect.
    info = httpx.get(f"{i2.http}/api/rooms/{table.code}", timeout=10)
    assert info.status_code == 200 and info.headers["x-instance"] == "i2"
    for p in table.players:
        with pytest.raises(ConnectionClosed):
            while True:
                frame = p.recv()
                if frame["type"] == "bye":
                    assert frame["reason"] == "moved"
    assert httpx.get(f"{i1.http}/healthz").json()["rooms"] == 0
    table.connect(i2)
    assert [p.game() for p in table.players] == seat_views(replay(SEED, PLAYERS, table.acked))
    check_journal(i2, table)


def test_an_owner_killed_mid_game_loses_nothing(instances: list[Instance]) -> None:
    i1, i2 = instances
    table = Table(i1, PLAYERS, seed=2)
    table.play(10)
    i1.kill()
    table.close()
    table.connect(i2)  # waits for i1's lease to expire, then i2 claims the room
    assert [p.game() for p in table.players] == seat_views(replay(SEED, PLAYERS, table.acked))
    table.play(6)
    i1.start()  # back: the room stays where it is until someone asks i1 for it
    table.connect(i1)
    check_journal(i1, table)


def test_a_frozen_owner_gets_nothing_acknowledged_after_losing_its_lease(
    instances: list[Instance],
) -> None:
    i1, i2 = instances
    table = Table(i1, PLAYERS, seed=3)
    table.play(8)
    frozen = table.players
    i1.signal(signal.SIGSTOP)
    # While i1 sleeps past its lease, i2 takes the room over and play goes on there.
    seat, action = table.choose()
    table.players = []
    table.connect(i2)
    table.play(5)
    # An action sent to the frozen owner, for the version it last showed, is read when it
    # wakes up: it must not be acknowledged (the epoch in PostgreSQL fences its write).
    frozen[seat].send_act(action)
    i1.signal(signal.SIGCONT)
    answers = []
    try:
        while True:
            answers.append(frozen[seat].recv())
    except (ConnectionClosed, TimeoutError):
        pass
    assert not any(a["type"] == "ack" for a in answers), answers
    for p in frozen:
        p.close()
    assert httpx.get(f"{i1.http}/healthz", timeout=10).json()["rooms"] == 0
    check_journal(i2, table)


def test_cluster_mode_refuses_sqlite_in_one_line(cluster_env: dict[str, str], tmp_path) -> None:
    env = {**cluster_env, "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/x.db",
           "PORT": "1", "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-m", "server"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "PostgreSQL" in lines[0], done.stderr


def test_one_lobby_and_one_creation_limit_for_the_cluster(
    instances: list[Instance], cluster_env: dict[str, str]
) -> None:
    i1, i2 = instances
    made = httpx.post(f"{i1.http}/api/rooms", json={"players": 3, "public": True}).json()
    for _ in range(100):
        listing = httpx.get(f"{i2.http}/api/rooms").json()
        if any(r["code"] == made["code"] for r in listing["open"]):
            break
        time.sleep(0.05)
    else:
        pytest.fail(f"room {made['code']} of i1 never listed on i2")
    # ROOM_CREATE_RATE (10 a minute) counts every instance's rooms for one address.
    answers = [httpx.post(f"{i.http}/api/rooms", json={"players": 2}).status_code
               for _ in range(5) for i in (i1, i2)]
    assert answers.count(201) == 9 and answers[-1] == 429, answers
    assert json.loads(httpx.get(f"{i2.http}/healthz").text)["instance"] == "i2"


def test_player_socket_is_resumed_on_the_new_owner(instances: list[Instance]) -> None:
    i1, i2 = instances
    table = Table(i1, PLAYERS, seed=4)
    table.play(3)
    last = table.players[0].v
    i1.terminate()  # SIGTERM: hands the room over before exiting
    table.close()
    fresh = Player(i2.ws(table.code), table.tokens[0], last)
    assert fresh.first["type"] == "snapshot" and fresh.v != last
    fresh.close()

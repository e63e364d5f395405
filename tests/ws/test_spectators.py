"""Crowds of spectators: their comings and goings are published together, and capped."""

from __future__ import annotations

import pytest

from tests.ws.test_bad_input import refused, seated


def spectator_versions(viewer) -> int:
    """How many of the frames this viewer got were spectator-count versions."""
    import json

    frames = [json.loads(t) for t in viewer.texts]
    return sum(1 for f in frames if f["type"] == "patch"
               and any(e["type"] == "spectators" for e in f["events"]))


@pytest.fixture
def settings(make_settings):
    return make_settings(PRESENCE_INTERVAL=3600, MAX_SPECTATORS=40)


def test_a_crowd_arriving_costs_each_viewer_one_frame(table, connect):
    t, seats = seated(table, connect)
    player = seats[0]
    v = t.room.v
    crowd = []
    for _ in range(30):
        watcher = connect(t.code)
        watcher.hello()
        watcher.recv()
        crowd.append(watcher)
    assert len(t.room.spectators) == 30
    assert t.room.v == v + 1  # the first arrival at once, the other 29 held back
    player.sync(t.room.v)
    assert spectator_versions(player) == 1
    actor = seats[t.room.game.current]  # the next version carries the true count
    actor.sync(t.room.v)
    actor.send({"type": "act", "id": 1, "v": actor.v, "action": actor.view["game"]["legal"][0]})
    actor.expect("ack")
    assert actor.view["room"]["spectators"] == 30


def test_the_held_back_count_is_published_after_the_interval(make_settings):
    from fastapi.testclient import TestClient

    from server.main import create_app
    from tests.conftest import Table, Viewer

    with TestClient(create_app(make_settings(PRESENCE_INTERVAL=0.2))) as client:
        t = Table(client, 2)
        with client.websocket_connect(f"/ws/{t.code}") as a, \
                client.websocket_connect(f"/ws/{t.code}") as b, \
                client.websocket_connect(f"/ws/{t.code}") as c:
            first, second, third = Viewer(a), Viewer(b), Viewer(c)
            for viewer in (first, second, third):
                viewer.hello()
                viewer.recv()
            while first.view["room"]["spectators"] != 3:  # no new frame until it is published
                first.recv(timeout=10)
            assert spectator_versions(first) <= 2


def test_a_full_gallery_refuses_more_spectators_with_a_clear_error(table, connect):
    t = table(2)
    crowd = []
    for _ in range(40):
        watcher = connect(t.code)
        watcher.hello()
        watcher.recv()
        crowd.append(watcher)
    late = connect(t.code)
    error = refused(late, {"type": "hello"}, "spectators_full")
    assert "40" in error["message"]
    assert len(t.room.spectators) == 40
    crowd[0].ws.close()
    while len(t.room.spectators) == 40:  # the departure is seen by the room
        late.send({"type": "ping"})
        late.expect("pong")
    late.hello()  # a seat in the gallery is free again
    assert late.recv()["type"] == "snapshot"


def test_players_are_never_refused_for_spectators(table, connect):
    t = table(2)
    for _ in range(40):
        watcher = connect(t.code)
        watcher.hello()
        watcher.recv()
    t.join_all()
    player = connect(t.code)
    player.hello(t.tokens[0])
    assert player.recv()["type"] == "snapshot"

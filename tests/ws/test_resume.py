"""Coming back: a small gap replays the missed patches, a large one sends a snapshot, and a
seat reloaded with its token takes its seat back from the older socket."""

from __future__ import annotations

import json

import pytest


@pytest.fixture
def settings(make_settings):
    return make_settings(RESUME_BUFFER=6)


def started(table, connect, players=2):
    t = table(players)
    t.join_all()
    seats = []
    for seat in range(players):
        viewer = connect(t.code)
        viewer.hello(t.tokens[seat])
        viewer.recv()
        seats.append(viewer)
    t.start()
    for viewer in seats:
        viewer.sync(t.room.v)
    return t, seats


def act_first_legal(t, viewers, times):
    """Play the first legal action `times` times straight through the room (on its loop)."""
    room = t.room
    for _ in range(times):
        seat = room.game.current
        t.client.portal.call(room.act, seat, room.view(seat)["game"]["legal"][0], room.v)
        for viewer in viewers:
            viewer.sync(room.v)


@pytest.mark.parametrize("as_seat", [None, 1])
def test_small_gap_replays_patches(table, connect, same, as_seat):
    t, seats = started(table, connect)
    if as_seat is None:
        first = connect(t.code)
        first.hello()
        first.sync(t.room.v)
    else:
        first = seats.pop(as_seat)
    last_seen, view = first.v, first.view
    first.ws.close(1000)
    act_first_legal(t, seats, 2)  # plus the presence change when `first` left
    again = connect(t.code)
    again.v, again.view = last_seen, view
    again.hello(None if as_seat is None else t.tokens[as_seat], last_seen)
    again.recv()
    again.sync(t.room.v)  # the room's version after `again` arrived
    kinds = [json.loads(text)["type"] for text in again.texts]
    kinds = [k for k in kinds if k != "watcher"]  # a spectator is told who it is, too
    assert set(kinds) == {"patch"} and len(kinds) >= 3, f"patches, not a snapshot: {kinds}"
    assert same(again.view, t.fresh(as_seat))


def test_large_gap_sends_a_snapshot(table, connect, same):
    t, seats = started(table, connect)
    watcher = connect(t.code)
    watcher.hello()
    watcher.sync(t.room.v)
    last_seen = watcher.v
    watcher.ws.close(1000)
    act_first_legal(t, seats, 8)  # more versions than RESUME_BUFFER=6
    again = connect(t.code)
    again.hello(None, last_seen)
    assert again.recv()["type"] == "snapshot"
    again.sync(t.room.v)
    assert same(again.view, t.fresh(None))


def test_a_resume_at_the_current_version_gets_an_empty_patch_at_that_version(
        table, connect, same):
    """A player whose old socket is still open (the server has not noticed it died)
    comes back on a new one, already current: nothing changes for anyone, so no version is
    made; one empty patch tells the new socket it is caught up (else the table showed
    "reconnecting" and kept an unsent action until the next change)."""
    t, seats = started(table, connect)
    seat = t.room.game.current
    old = seats[seat]
    again = connect(t.code)
    again.v, again.view = old.v, old.view
    again.hello(t.tokens[seat], old.v)
    assert again.recv() == {"type": "patch", "v": old.v, "ops": [], "events": []}
    assert old.expect("bye") == {"type": "bye", "reason": "replaced"}
    assert t.room.v == old.v and same(again.view, t.fresh(seat))
    again.send({"type": "act", "id": 1, "v": again.v,  # the new socket plays on at once
                "action": again.view["game"]["legal"][0]})
    assert again.expect("ack")["v"] == t.room.v


def test_reload_a_seat_mid_game_with_its_token(table, connect, same):
    t, seats = started(table, connect)
    act_first_legal(t, seats, 3)
    current = t.room.game.current
    old = seats[current]
    new = connect(t.code)
    new.hello(t.tokens[current])
    assert new.recv()["type"] == "snapshot"
    assert old.expect("bye") == {"type": "bye", "reason": "replaced"}
    assert t.room.info()["seats"][current]["connected"] is True
    action = new.view["game"]["legal"][0]
    new.send({"type": "act", "id": 9, "v": new.v, "action": action})
    assert new.expect("ack")["v"] == t.room.v
    new.sync(t.room.v)
    assert same(new.view, t.fresh(current))


def test_a_dropped_seat_shows_disconnected(table, connect):
    t, seats = started(table, connect)
    seats[0].ws.close(1000)
    seats[1].sync(t.room.v)
    while seats[1].view["room"]["seats"][0]["connected"]:
        seats[1].recv()
    assert t.room.info()["seats"][0]["connected"] is False


def test_a_kicked_seat_hears_bye_and_its_token_stops_working(table, connect):
    t, seats = started(table, connect)
    r = t.client.post(f"/api/rooms/{t.code}/kick", json={"token": t.host_token, "seat": 1})
    assert r.is_success
    assert seats[1].expect("bye") == {"type": "bye", "reason": "kicked"}
    again = connect(t.code)
    again.hello(t.tokens[1])
    assert again.expect("error")["code"] == "forbidden"

"""Bad input never hurts a room: every refusal is a coded error and the state is unchanged."""

from __future__ import annotations

import json

import pytest
from starlette.websockets import WebSocketDisconnect

from server.rules import to_dict


def seated(table, connect, start=True):
    t = table(2)
    t.join_all()
    seats = []
    for seat in range(2):
        viewer = connect(t.code)
        viewer.hello(t.tokens[seat])
        viewer.recv()
        seats.append(viewer)
    if start:
        t.start()
    for viewer in seats:
        viewer.sync(t.room.v)
    return t, seats


def state(t):
    room = t.room
    return room.v, None if room.game is None else json.dumps(to_dict(room.game), sort_keys=True)


def refused(viewer, frame, code):
    viewer.send(frame)
    error = viewer.expect("error")
    assert error["code"] == code, error
    viewer.send({"type": "ping"})  # still open and answering
    viewer.expect("pong")
    return error


BAD_FRAMES = [
    ("{", "malformed"),
    ("[1, 2]", "malformed"),
    ('"hello"', "malformed"),
    ("[" * 5000 + "]" * 5000, "malformed"),
    ("{}", "malformed"),
    ('{"type": 3}', "malformed"),
    ('{"type": "shout"}', "unknown_type"),
    ('{"type": "act", "id": 1, "v": 0}', "malformed"),
    ('{"type": "act", "id": 1, "v": "0", "action": {"type": "stop"}}', "malformed"),
    ('{"type": "act", "id": 1, "v": true, "action": {"type": "stop"}}', "malformed"),
    ('{"type": "act", "id": [1], "v": 0, "action": {"type": "stop"}}', "malformed"),
    ('{"type": "act", "id": 1, "v": 0, "action": {"type": "stop"}, "x": 1}', "malformed"),
    ('{"type": "ping", "extra": 1}', "malformed"),
    ('{"type": "hello"}', "malformed"),  # a second hello
]


@pytest.mark.parametrize(("text", "code"), BAD_FRAMES)
def test_bad_frames_get_coded_errors(table, connect, text, code):
    t, seats = seated(table, connect)
    before = state(t)
    error = refused(seats[0], text, code)
    assert error["message"]
    assert state(t) == before


def test_error_echoes_the_frame_id(table, connect):
    t, seats = seated(table, connect)
    error = refused(seats[0], {"type": "act", "id": "x7", "v": "bad", "action": {}}, "malformed")
    assert error["id"] == "x7"


def test_binary_frames(table, connect):
    t, seats = seated(table, connect)
    seats[0].ws.send_bytes(b"\xff\xfe")
    assert seats[0].expect("error")["code"] == "malformed"
    seats[0].ws.send_bytes(b'{"type": "ping"}')
    seats[0].expect("pong")


def test_game_refusals(table, connect):
    t, seats = seated(table, connect)
    room = t.room
    current = room.game.current
    actor, other = seats[current], seats[1 - current]
    before = state(t)
    legal = actor.view["game"]["legal"][0]

    def act(viewer, action, v=None):
        return {"type": "act", "id": 1, "v": viewer.v if v is None else v, "action": action}

    refused(other, act(other, legal), "not_your_turn")
    refused(actor, act(actor, {"type": "fly"}), "malformed_action")
    refused(actor, act(actor, {"type": "place"}), "malformed_action")
    refused(actor, act(actor, {"type": "end_turn"}), "illegal_action")
    refused(actor, act(actor, {"type": "undo"}), "nothing_to_undo")
    refused(actor, act(actor, legal, v=room.game_v - 1), "stale")
    refused(actor, act(actor, legal, v=room.v + 5), "stale")
    assert state(t) == before


def test_presence_changes_do_not_make_an_action_stale(table, connect):
    t, seats = seated(table, connect)
    actor = seats[t.room.game.current]
    v = actor.v
    watcher = connect(t.code)
    watcher.hello()
    watcher.recv()
    actor.sync(t.room.v)
    assert actor.v > v  # the spectator's arrival was a version
    actor.send({"type": "act", "id": 2, "v": v, "action": actor.view["game"]["legal"][0]})
    assert actor.expect("ack")["id"] == 2


def test_spectators_and_strangers_cannot_act(table, connect):
    t, seats = seated(table, connect)
    before = state(t)
    watcher = connect(t.code)
    refused(watcher, {"type": "act", "id": 1, "v": 0, "action": {"type": "stop"}}, "malformed")
    refused(watcher, {"type": "hello", "token": "not-a-token"}, "forbidden")
    refused(watcher, {"type": "hello", "token": "é" * 10}, "forbidden")
    watcher.hello()
    watcher.recv()
    legal = seats[t.room.game.current].view["game"]["legal"][0]
    refused(watcher, {"type": "act", "id": 1, "v": watcher.v, "action": legal}, "forbidden")
    assert state(t)[1] == before[1]


def test_acting_before_the_start(table, connect):
    t, seats = seated(table, connect, start=False)
    refused(seats[0], {"type": "act", "id": 1, "v": seats[0].v, "action": {"type": "stop"}},
            "not_started")


def test_acting_after_the_end(table, connect, client):
    t, seats = seated(table, connect)
    room = t.room
    while room.game.phase != "over":
        seat = room.game.current
        client.portal.call(room.act, seat, room.view(seat)["game"]["legal"][-1], room.v)
    seats[0].sync(room.v)
    before = state(t)
    refused(seats[0], {"type": "act", "id": 1, "v": room.v, "action": {"type": "stop"}},
            "game_over")
    assert state(t) == before


def test_unknown_room(connect):
    viewer = connect("ZZZZ-ZZZZ")
    assert viewer.recv()["code"] == "not_found"
    with pytest.raises(WebSocketDisconnect) as closed:
        viewer.recv()
    assert closed.value.code == 4404


@pytest.fixture
def settings(make_settings):
    return make_settings(WS_MAX_FRAME=16384, WS_FLOOD_MESSAGES=30)


def test_oversized_frame_closes_with_1009(table, connect):
    t, seats = seated(table, connect)
    before = state(t)
    seats[0].send('{"type": "ping", "pad": "' + "x" * 17000 + '"}')
    assert seats[0].expect("error")["code"] == "too_large"
    assert seats[0].expect("bye")["reason"] == "too_large"
    with pytest.raises(WebSocketDisconnect) as closed:
        seats[0].recv()
    assert closed.value.code == 1009
    seats[1].sync(t.room.v)
    assert state(t)[1] == before[1]
    assert t.room.info()["seats"][0]["connected"] is False


def test_flood_closes_with_1008(table, connect):
    t, seats = seated(table, connect)
    before = state(t)
    for _ in range(31):  # the hello was one frame of the budget of 30
        seats[0].send({"type": "ping"})
    pongs = 0
    while True:
        frame = seats[0].recv()
        if frame["type"] == "pong":
            pongs += 1
        elif frame["type"] not in ("snapshot", "patch"):
            break
    assert pongs == 29 and frame == {
        "type": "error", "id": None, "code": "flood", "message": frame["message"]
    }
    assert seats[0].expect("bye")["reason"] == "flood"
    with pytest.raises(WebSocketDisconnect) as closed:
        seats[0].recv()
    assert closed.value.code == 1008
    assert state(t)[1] == before[1]

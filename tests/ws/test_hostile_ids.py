"""Ids and strings a reply cannot carry are refused at the boundary; the socket lives on."""

from __future__ import annotations

import json

import pytest

from tests.ws.test_bad_input import refused, seated, state

HUGE = 2**64  # beyond a signed 64-bit integer: nothing could echo it faithfully
LONE_SURROGATE = '"\\ud800"'  # valid JSON escape, but no UTF-8 text can hold it


def act_text(id_json: str, v: int, action: dict) -> str:
    return f'{{"type": "act", "id": {id_json}, "v": {v}, "action": {json.dumps(action)}}}'


@pytest.mark.parametrize("id_json", [str(HUGE), str(-(2**63) - 1), "1" * 400, LONE_SURROGATE])
def test_a_legal_act_with_an_unechoable_id_is_refused_not_applied(table, connect, id_json):
    t, seats = seated(table, connect)
    actor = seats[t.room.game.current]
    before = state(t)
    error = refused(actor, act_text(id_json, actor.v, actor.view["game"]["legal"][0]),
                    "malformed")
    assert error["id"] is None
    assert state(t) == before


def test_the_widest_ids_are_echoed(table, connect):
    t, seats = seated(table, connect)
    actor = seats[t.room.game.current]
    actor.send(act_text(str(2**63 - 1), actor.v, actor.view["game"]["legal"][0]))
    assert actor.expect("ack")["id"] == 2**63 - 1


@pytest.mark.parametrize(
    "text",
    [f'{{"type": "hello", "id": {HUGE}}}', f'{{"type": "hello", "id": {LONE_SURROGATE}}}',
     f'{{"type": "hello", "token": {LONE_SURROGATE}}}', '{"type": "hello", "v": NaN}'],
)
def test_a_hello_that_cannot_be_answered_verbatim_gets_malformed(table, connect, text):
    t = table(2)
    viewer = connect(t.code)
    before = state(t)
    assert refused(viewer, text, "malformed")["id"] is None
    assert state(t) == before
    viewer.hello()  # and the socket can still say a proper hello
    assert viewer.recv()["type"] == "snapshot"

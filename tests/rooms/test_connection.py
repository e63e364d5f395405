"""A viewer that stops reading hears bye "lagging" next, not after everything it missed."""

from __future__ import annotations

import json

from server.rooms import Close, Connection


def drain(conn: Connection) -> list[object]:
    items = []
    while not conn.outbox.empty():
        items.append(conn.outbox.popleft())
    return items


def test_a_lagging_reader_gets_bye_lagging_as_its_next_frame():
    conn = Connection(limit=8)
    for i in range(8):
        conn.send(json.dumps({"type": "patch", "v": i}))
    conn.send(json.dumps({"type": "patch", "v": 8}))  # one too many
    bye, close, *rest = drain(conn)
    assert isinstance(bye, str) and json.loads(bye) == {"type": "bye", "reason": "lagging"}
    assert close == Close(1008, "lagging") and rest == []
    conn.send("later")  # after the bye nothing more is queued
    assert drain(conn) == []


def test_below_the_limit_every_frame_is_kept_in_order():
    conn = Connection(limit=8)
    for i in range(8):
        conn.send(str(i))
    assert drain(conn) == [str(i) for i in range(8)]

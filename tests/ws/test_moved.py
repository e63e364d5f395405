"""A socket that greets a room just handed to another instance (cluster mode) is told to
go there: error `moved`, then bye `moved`, so the client reconnects through the proxy."""

from __future__ import annotations

from server.rooms import MOVED


def test_hello_to_a_room_that_moved_away_says_where_to_go(table, connect) -> None:
    t = table(2)
    t.join_all()
    t.start()
    viewer = connect(t.code)
    t.room.status = MOVED  # handed over while this socket was opening
    viewer.hello(t.tokens[0])
    assert viewer.recv()["code"] == "moved"
    assert viewer.recv() == {"type": "bye", "reason": "moved"}

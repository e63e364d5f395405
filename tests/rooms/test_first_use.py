"""Per-room and per-socket state that most tables never use is made on first use (issue
42): a room nobody mutes in keeps no mute table, a socket that asks no hint keeps no set of
hint tasks; both work as before once used."""

from __future__ import annotations

import sys

from server.config import Settings
from server.rooms import Connection, NullJournal, RoomOptions, chat
from server.rooms.room import Room
from server.ws.session import Session


def room() -> Room:
    return Room("FIRSTUSE", RoomOptions(2), journal=NullJournal(), clock=lambda: 0.0,
                seed=1, host_token_hash="", resume_buffer=8)


def test_a_room_nobody_mutes_in_keeps_no_mute_table():
    table, viewer = room(), Connection()
    assert table.talk._mutes is None
    assert chat.TalkLog().muted(viewer) == set()
    table.talk.mute(viewer, "p0", True)
    assert table.talk.muted(viewer) == {"p0"}
    table.talk.mute(viewer, "p0", False)
    assert table.talk.muted(viewer) == set()


def test_a_socket_that_asks_no_hint_keeps_no_hint_tasks():
    session = Session(room(), Settings(), lambda: 0.0)
    assert session._hinting is None


def test_a_rooms_resume_buffer_and_recent_events_start_as_empty_lists():
    """Lists, not deques: 56 bytes each where an empty deque costs 760 (two per room)."""
    table = room()
    assert table.history.entries == [] and table.recent.tails == []
    assert sys.getsizeof(table.history.entries) + sys.getsizeof(table.recent.tails) < 200


def test_a_socket_keeps_its_state_in_slots():
    session = Session(room(), Settings(), lambda: 0.0)
    assert not hasattr(session, "__dict__") and not hasattr(session.budget, "__dict__")


def test_a_room_keeps_its_state_in_slots():
    """37 attributes: a dict of its own would share no keys with the other rooms'."""
    table = room()
    assert not hasattr(table, "__dict__")
    assert sys.getsizeof(table) < 400

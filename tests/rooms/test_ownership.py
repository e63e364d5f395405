"""Room owns its state (issue 28): only `Room` and its `Seat`s write a room's or a seat's
attributes, and only the manager adds or removes rooms. Seating, timeouts, chat and the
cluster ask through their methods (Room.sit, vacate, set_stand_in, ...; the manager's
forget). Checked on the source: any other module that assigns an attribute with the name
of one of theirs fails here, unless it is listed below as another class's attribute."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

from server.rooms.seat import Seat

SERVER = Path(__file__).resolve().parents[2] / "server"
ROOM = sorted((SERVER / "rooms/room").glob("*.py"))  # Room, one module per concern
OWNERS = {"rooms/seat.py"} | {p.relative_to(SERVER).as_posix() for p in ROOM}

# Assignments elsewhere to attributes that share a name with Room's or Seat's, on objects
# that are neither: (module, the assigned expression).
OTHER_CLASSES = {
    ("bots/determinize.py", "game.seed"),  # a rules Game
    ("bots/tournament.py", "t.seats"),  # a tournament's table
    ("db/store.py", "game.talk"),  # a stored game row
    ("wiring/lifespan.py", "manager.journal"),  # the RoomManager, wired at start-up
}


def attributes_of_room_and_seat() -> set[str]:
    trees = [ast.parse(path.read_text()) for path in ROOM]
    room = {node.attr for tree in trees for node in ast.walk(tree)
            if isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Store) and isinstance(node.value, ast.Name)
            and node.value.id == "self"}
    return room | {f.name for f in dataclasses.fields(Seat)}


def writes_elsewhere() -> list[tuple[str, str]]:
    names = attributes_of_room_and_seat()
    found = []
    for path in sorted(SERVER.rglob("*.py")):
        module = path.relative_to(SERVER).as_posix()
        if module in OWNERS:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Attribute | ast.Subscript) or \
                    not isinstance(node.ctx, ast.Store | ast.Del):
                continue
            own_attribute = isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id in ("self", "cls")
            room_or_seat = isinstance(node, ast.Attribute) and node.attr in names
            manager_rooms = isinstance(node, ast.Subscript) and module != "rooms/manager.py" \
                and isinstance(node.value, ast.Attribute) and node.value.attr == "rooms"
            if (room_or_seat and not own_attribute) or manager_rooms:
                found.append((module, ast.unparse(node)))
    return found


def test_only_room_and_seat_write_their_state_and_only_the_manager_its_rooms():
    assert [w for w in writes_elsewhere() if w not in OTHER_CLASSES] == []


def test_the_exceptions_are_still_there():
    """An exception that no longer occurs is dropped from the list (it would hide a write)."""
    assert set(writes_elsewhere()) >= OTHER_CLASSES

"""`Room` owns its transitions: nothing outside it writes its lifecycle fields, and each
transition leaves the room in the state its name says."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from server.config import Settings
from server.rooms import FINISHED, INCOMPATIBLE, MOVED, PLAYING, WAITING, RoomManager, RoomOptions
from server.rules import apply, is_over, legal_actions

SERVER = Path(__file__).resolve().parents[2] / "server"
FIELDS = "status|game|actions|finished_at|notice|rematch|rematch_tokens|v"


def build(players: int = 2):
    return RoomManager(Settings()).build("ABCDEFGH", RoomOptions(players), 11, "host-hash")


def test_no_module_but_room_writes_a_rooms_lifecycle_fields() -> None:
    write = re.compile(rf"\b(?!self\b)\w+\.({FIELDS})(\s*,\s*\w+\.\w+)*\s*=[^=]")
    offenders = []
    for path in SERVER.rglob("*.py"):
        if path.parent.name == "room" and path.parent.parent.name == "rooms":
            continue  # Room itself, one module per concern
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if write.search(line) and "room" in line:
                offenders.append(f"{path.relative_to(SERVER)}:{n}: {line.strip()}")
    assert offenders == []


def test_no_over_literal_outside_the_rules() -> None:
    offenders = [str(p) for p in SERVER.rglob("*.py")
                 if "rules" not in p.parts and '"over"' in p.read_text()]
    assert offenders == []


def test_begin_unbegin_finish() -> None:
    room = build()
    room.begin()
    assert room.status == PLAYING and room.game is not None and room.game.seed == 11
    room.unbegin()
    assert room.status == WAITING and room.game is None
    room.begin()
    room.finish()
    assert room.status == FINISHED and room.finished_at is not None


def test_restore_game_replays_and_checks_the_end() -> None:
    live = build()
    live.begin()
    game, actions = live.game, []
    while not is_over(game) and len(actions) < 30:
        seat, action = game.current, legal_actions(game)[0]
        apply(game, action, seat)
        actions.append((seat, action))
    restored = build()
    restored.restore_game(PLAYING, actions)
    assert restored.status == PLAYING and restored.game.version == len(actions)
    with pytest.raises(ValueError, match="does not replay to its end"):
        build().restore_game(FINISHED, actions)
    with pytest.raises(ValueError):
        build().restore_game(WAITING, actions)


def test_incompatible_and_moved_rooms_are_closed() -> None:
    room = build()
    room.begin()
    room.make_incompatible("other rules")
    assert (room.status, room.notice, room.game, room.actions) == (
        INCOMPATIBLE, "other rules", None, [])
    room.move_away()
    assert room.status == MOVED
    with pytest.raises(ValueError):
        room.restore_host(5)

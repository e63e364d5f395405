"""Whole games over websockets: every client's patched view equals a fresh snapshot, and
no frame ever shows a card before it is drawn, the seed, or the deck order."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from pydantic import TypeAdapter

from server.rooms.outgoing import AnyServerFrame
from server.rules import check_invariants

SERVER_FRAME = TypeAdapter(AnyServerFrame)


def card_ids(value: Any, found: set[int]) -> set[int]:
    """Every card id a frame mentions: card objects, "card" fields, lists of ids in events."""
    if isinstance(value, dict):
        if "recipe" in value and type(value.get("id")) is int:
            found.add(value["id"])
        for key, item in value.items():
            if key == "card" and type(item) is int:
                found.add(item)
            elif key in ("discarded", "penalties") and isinstance(item, list):
                found.update(i for i in item if type(i) is int)
            card_ids(item, found)
    elif isinstance(value, list):
        for item in value:
            card_ids(item, found)
    return found


def secrets_shown(value: Any) -> list[str]:
    """Keys that must not appear before the game is over."""
    shown = []
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "seed" or (key == "deck" and not isinstance(item, int)):
                shown.append(key)
            shown += secrets_shown(item)
    elif isinstance(value, list):
        for item in value:
            shown += secrets_shown(item)
    return shown


def check_frames(texts: list[str], undrawn: set[int], over: bool) -> None:
    for text in texts:
        frame = json.loads(text)
        SERVER_FRAME.validate_python(frame)  # the documented schema is the real one
        if over:
            continue
        assert not secrets_shown(frame), text
        leaked = card_ids(frame, set()) & undrawn
        assert not leaked, f"undrawn cards {leaked} in {text[:200]}"


def play(table, connect, same, players: int, seed: int, spectators: int = 1) -> int:
    t = table(players)
    t.join_all()
    seats = [connect(t.code) for _ in range(players)]
    watchers = [connect(t.code) for _ in range(spectators)]
    viewers = [(s, v) for s, v in enumerate(seats)] + [(None, w) for w in watchers]
    for seat, viewer in viewers:
        viewer.hello(None if seat is None else t.tokens[seat])
        viewer.recv()  # the snapshot
    t.start()
    room = t.room
    for _, viewer in viewers:
        viewer.sync(room.v)
        assert viewer.view["game"] is not None
    rng = random.Random(seed)
    seen = {id(v): 0 for _, v in viewers}
    actions = 0
    while room.game.phase != "over":
        game = room.game
        actor = seats[game.current]
        mine = actor.view["game"]
        assert mine["legal"], "the seat to act always has a legal action"
        if mine["can_undo"] and rng.random() < 0.05:
            action = {"type": "undo"}
        else:
            action = rng.choice(mine["legal"])
        actor.send({"type": "act", "id": actions, "v": actor.v, "action": action})
        ack = actor.expect("ack")
        assert ack == {"type": "ack", "id": actions, "v": room.v}
        actions += 1
        check_invariants(game)
        undrawn = set(game.deck)
        for seat, viewer in viewers:
            viewer.sync(room.v)
            assert same(viewer.view, t.fresh(seat)), f"seat {seat} drifted at v{room.v}"
            check_frames(viewer.texts[seen[id(viewer)]:], undrawn, game.phase == "over")
            seen[id(viewer)] = len(viewer.texts)
    result = watchers[0].view["game"]["result"]
    assert result is not None and "seed" in result and isinstance(result["deck"], list)
    assert t.room.status == "finished"
    for _, viewer in viewers:
        assert not [f for f in viewer.others if f["type"] == "error"], viewer.others
    return actions


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_complete_random_game_over_websockets(table, connect, same, players, seed):
    assert play(table, connect, same, players, seed) > 20


def test_card_walker_finds_every_kind_of_mention():
    frame = {
        "ops": [{"op": "add", "path": "/x", "value": {"id": 5, "name": "A", "recipe": {}}}],
        "events": [{"type": "upgraded", "discarded": [7, 8]}, {"penalties": [9]}],
        "legal": [{"type": "serve", "cup": 0, "card": 11}],
    }
    assert card_ids(frame, set()) == {5, 7, 8, 9, 11}
    assert secrets_shown({"result": {"seed": 1, "deck": [1, 2]}}) == ["seed", "deck"]
    assert secrets_shown({"deck": 40}) == []

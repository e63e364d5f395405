"""R-TURN: the five phases in order, whose turn it is, refusals that change nothing, undo."""

from __future__ import annotations

import pytest

from server.rules import (
    Game,
    IllegalAction,
    MalformedAction,
    NothingToUndo,
    NotYourTurn,
    RuleError,
    apply,
    can_undo,
    legal_actions,
    to_dict,
    view,
)

from .kit import Seat, act, cups, hand, order, position, tabs, walk

BOARD = """
    . . . .
    . 0 . .
    . . . 1
    2 . . 3
"""
ESPRESSO = Seat(
    tabs=[["Espresso"]], cups=[["coffee"]], completed=["Cocoa", "Milk Tea", "Cold Brew"],
)


def _game() -> Game:
    return position(players=4, board=BOARD, seats={0: ESPRESSO})


def test_the_five_phases_in_order() -> None:
    """R-TURN: upgrade, move, pour, process, then the automatic turn end (R-END)."""
    game = _game()
    seen = [game.phase]
    act(game, "upgrade", tile="double_corners")
    seen.append(game.phase)
    walk(game, "r1c2", "r1c3")  # caramel, steam
    act(game, "stop")
    seen.append(game.phase)
    act(game, "pour", ingredient="steam", cup=0)
    act(game, "return", ingredient="caramel")
    act(game, "done_pouring")
    seen.append(game.phase)
    act(game, "serve", cup=0, card=order(game, 0, "Espresso"))
    events = act(game, "end_turn")
    assert seen == ["upgrade", "move", "pour", "process"]
    assert [e["type"] for e in events] == [
        "orders_dealt", "orders_dealt", "time_flowed", "turn_ended", "turn_started",
    ]
    assert events[-1] == {"type": "turn_started", "seat": 1, "turn": game.turn, "phase": "move"}
    assert game.current == 1


JUNK = [
    None,
    "stop",
    [],
    {},
    {"type": "fly"},
    {"type": 3},
    {"type": "step"},  # missing cell
    {"type": "step", "cell": "r5c1"},
    {"type": "step", "cell": "r2c3", "speed": 2},  # unknown field
    {"type": "pour", "ingredient": "sugar", "cup": 0},
    {"type": "pour", "ingredient": "milk", "cup": 3},
    {"type": "pour", "ingredient": "milk", "cup": True},
    {"type": "serve", "cup": 0, "card": 80},
    {"type": "upgrade", "tile": "jetpack"},
    {"type": "stop", "extra": None},
]


@pytest.mark.parametrize("action", JUNK, ids=repr)
def test_junk_is_malformed_and_changes_nothing(action: object) -> None:
    """R-TURN: what is not an action at all is refused as `malformed_action`."""
    game = _game()
    before = to_dict(game)
    with pytest.raises(MalformedAction) as err:
        apply(game, action)
    assert err.value.code == "malformed_action"
    assert to_dict(game) == before


def test_wrong_seat_is_not_your_turn_and_changes_nothing() -> None:
    """R-TURN: only the seat to act may act; other seats are offered nothing."""
    game = _game()
    before = to_dict(game)
    for seat in (1, 2, 3):
        assert legal_actions(game, seat) == []
        assert view(game, seat)["legal"] == []
        with pytest.raises(NotYourTurn) as err:
            apply(game, {"type": "skip_upgrade"}, seat=seat)
        assert err.value.code == "not_your_turn" and err.value.rule == "R-TURN"
    assert to_dict(game) == before
    apply(game, {"type": "skip_upgrade"}, seat=0)
    assert game.phase == "move"


def test_an_illegal_action_names_its_rule_and_changes_nothing() -> None:
    """R-TURN: each refusal has a stable code, a sentence and the rule it enforces."""
    game = _game()
    before = to_dict(game)
    with pytest.raises(IllegalAction) as err:
        apply(game, {"type": "step", "cell": "r2c3"})  # phase 1 is still open
    assert isinstance(err.value, RuleError)
    assert err.value.code == "illegal_action"
    assert err.value.rule == "R-MOVE"
    assert "upgrade" in err.value.message
    assert to_dict(game) == before


def test_undo_walks_back_to_the_turn_start() -> None:
    """R-TURN: undo takes back the turn's actions one at a time, across phases, back to
    the state the turn began in."""
    game = _game()
    start = to_dict(game)
    assert not can_undo(game)
    assert view(game, 0)["can_undo"] is False
    act(game, "upgrade", tile="double_specialties")
    walk(game, "r1c2", "r1c3")
    act(game, "stop")
    act(game, "pour", ingredient="steam", cup=0)
    act(game, "empty", cup=0)
    assert cups(game, 0) == [[], [], []]
    assert view(game, 0)["can_undo"] is True

    events = act(game, "undo")
    assert events == [{"type": "undone", "seat": 0, "action": {"type": "empty", "cup": 0}}]
    assert cups(game, 0) == [["coffee", "steam"], [], []]
    act(game, "undo")  # the pour
    assert hand(game) == {"caramel": 2, "steam": 1}
    act(game, "undo")  # the stop
    assert game.phase == "move"
    act(game, "undo")
    act(game, "undo")  # both steps
    assert hand(game) == {}
    act(game, "undo")  # the upgrade: the three cards come back from the discard pile
    assert game.phase == "upgrade"
    assert game.discard == [] and len(game.players[0].completed) == 3
    assert game.players[0].upgrades == [False] * 4
    assert not can_undo(game)
    with pytest.raises(NothingToUndo) as err:
        apply(game, {"type": "undo"})
    assert err.value.code == "nothing_to_undo"
    now = to_dict(game)
    for key in ("version", "legal_cache"):
        now.pop(key, None)
        start.pop(key, None)
    assert now == start


def test_the_turn_end_can_not_be_undone() -> None:
    """R-TURN: end_turn closes the turn; the next player starts with nothing to undo."""
    game = _game()
    act(game, "skip_upgrade")
    walk(game, "r2c3")
    act(game, "stop")
    act(game, "return", ingredient="ice")
    act(game, "done_pouring")
    act(game, "end_turn")
    assert game.current == 1
    before = to_dict(game)
    with pytest.raises(NothingToUndo):
        apply(game, {"type": "undo"})
    with pytest.raises(NotYourTurn):
        apply(game, {"type": "undo"}, seat=0)
    assert to_dict(game) == before
    assert tabs(game, 0) == [[], ["Espresso"], [], []]


def test_undo_then_a_different_choice() -> None:
    """R-TURN: after an undo the player may take another path; the game stays sound."""
    game = position(players=4, board=BOARD)
    walk(game, "r2c3")
    act(game, "undo")
    walk(game, "r1c2")
    act(game, "stop")
    assert hand(game) == {"caramel": 1}

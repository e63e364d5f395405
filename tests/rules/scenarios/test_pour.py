"""R-POUR (with R-FAQ-4): phase 3, tokens from the hand into cups or back to the supply."""

from __future__ import annotations

import pytest

from server.rules import Game, IllegalAction, apply, legal_actions, to_dict

from .kit import Seat, act, cups, hand, legal, position, supply, walk

BOARD = """
    . . . .
    . 0 . .
    . . . 1
    2 . . 3
"""


def _poured(cups_before: list[list[str]] | None = None) -> Game:
    """Seat 0 has walked r2c3 (ice), r2c2 (milk), r2c3 (ice) and stopped: hand 2 ice, 1 milk."""
    game = position(players=4, board=BOARD, seats={0: Seat(cups=cups_before or [])})
    walk(game, "r2c3", "r2c2", "r2c3")
    act(game, "stop")
    assert game.phase == "pour"
    assert hand(game) == {"ice": 2, "milk": 1}
    return game


def test_hand_tokens_go_into_any_cup_with_room_or_back_to_the_supply() -> None:
    """R-POUR: each hand token goes into any cup with room, or returns to the supply."""
    game = _poured()
    assert {(a["ingredient"], a["cup"]) for a in legal(game, "pour")} == {
        (i, k) for i in ("ice", "milk") for k in (0, 1, 2)
    }
    assert {a["ingredient"] for a in legal(game, "return")} == {"ice", "milk"}
    events = act(game, "pour", ingredient="ice", cup=2)
    assert events == [{"type": "poured", "seat": 0, "ingredient": "ice", "cup": 2}]
    act(game, "pour", ingredient="ice", cup=0)
    milk = supply(game, "milk")
    events = act(game, "return", ingredient="milk")
    assert events == [{"type": "returned", "seat": 0, "ingredient": "milk"}]
    assert supply(game, "milk") == milk + 1
    assert cups(game, 0) == [["ice"], [], ["ice"]]


def test_pouring_ends_only_with_an_empty_hand() -> None:
    """R-POUR: tokens left in hand are not allowed; the server never drops them."""
    game = _poured()
    assert not legal(game, "done_pouring")
    before = to_dict(game)
    with pytest.raises(IllegalAction) as err:
        apply(game, {"type": "done_pouring"})
    assert err.value.rule == "R-POUR"
    assert to_dict(game) == before
    act(game, "pour", ingredient="ice", cup=0)
    act(game, "pour", ingredient="ice", cup=0)
    act(game, "pour", ingredient="milk", cup=1)
    assert legal(game, "done_pouring") == [{"type": "done_pouring"}]
    assert act(game, "done_pouring") == [{"type": "pouring_done", "seat": 0}]
    assert game.phase == "process"


def test_only_tokens_in_hand_can_be_poured() -> None:
    """R-POUR: the hand is what this turn's move gained, nothing else."""
    game = _poured()
    with pytest.raises(IllegalAction):
        apply(game, {"type": "pour", "ingredient": "coffee", "cup": 0})
    with pytest.raises(IllegalAction):
        apply(game, {"type": "return", "ingredient": "steam"})


def test_a_full_cup_takes_no_more() -> None:
    """R-POUR / R-COMP-4: a cup holds at most 4 tokens."""
    game = _poured([["coffee", "coffee", "steam"]])
    act(game, "pour", ingredient="ice", cup=0)
    assert len(game.players[0].cups[0]) == 4
    assert {a["cup"] for a in legal(game, "pour")} == {1, 2}
    with pytest.raises(IllegalAction):
        apply(game, {"type": "pour", "ingredient": "ice", "cup": 0})


def test_a_poured_token_never_changes_cups() -> None:
    """R-FAQ-4: no action moves a token from one cup to another; the only way out of a cup
    is emptying it whole (or serving it)."""
    game = _poured([["coffee"]])
    act(game, "pour", ingredient="milk", cup=1)
    act(game, "pour", ingredient="ice", cup=1)
    act(game, "pour", ingredient="ice", cup=2)
    assert legal_actions(game) == [
        {"type": "empty", "cup": 0},
        {"type": "empty", "cup": 1},
        {"type": "empty", "cup": 2},
        {"type": "done_pouring"},
    ]
    act(game, "done_pouring")
    assert {a["type"] for a in legal_actions(game)} <= {"serve", "end_turn"}
    assert cups(game, 0) == [["coffee"], ["ice", "milk"], ["ice"]]


def test_emptying_whole_cups_returns_their_tokens() -> None:
    """R-FAQ-4 / R-POUR: any number of cups may be emptied, old tokens included; all their
    tokens go back to the supply."""
    game = _poured([["coffee", "coffee", "steam"], ["water"]])
    coffee, steam, water = supply(game, "coffee"), supply(game, "steam"), supply(game, "water")
    events = act(game, "empty", cup=0)
    assert events == [
        {"type": "emptied", "seat": 0, "cup": 0, "returned": {"coffee": 2, "steam": 1}},
    ]
    act(game, "empty", cup=1)
    assert cups(game, 0) == [[], [], []]
    assert (supply(game, "coffee"), supply(game, "steam"), supply(game, "water")) == (
        coffee + 2, steam + 1, water + 1,
    )
    assert not legal(game, "empty")
    # The emptied cup takes this turn's tokens again.
    act(game, "pour", ingredient="milk", cup=0)
    assert cups(game, 0) == [["milk"], [], []]

"""R-PROC (with R-FAQ-5): phase 4, serving orders from cups that match them exactly."""

from __future__ import annotations

import pytest

from server.rules import Game, IllegalAction, apply, card_public, to_dict

from .kit import Seat, act, cups, legal, names, order, position, supply, tabs, to_process

BOARD = """
    . . . .
    . 0 . .
    . . . 1
    2 . . 3
"""


def _ready(seat0: Seat, others: dict[int, Seat] | None = None) -> Game:
    """Seat 0's turn with the given table, moved one step (r2c3, ice returned), pouring done."""
    game = position(players=4, board=BOARD, seats={0: seat0, **(others or {})})
    to_process(game, "r2c3")
    assert game.phase == "process"
    return game


def test_a_cup_equal_to_the_recipe_completes_the_order() -> None:
    """R-PROC: contents equal to the recipe as multisets complete the order; the tokens
    return to the supply and the card goes to the completed pile."""
    game = _ready(Seat(tabs=[["Caffe Latte"]], cups=[["milk", "coffee", "steam"]]))
    latte = order(game, 0, "Caffe Latte")
    assert legal(game, "serve") == [{"type": "serve", "cup": 0, "card": latte}]
    milk = supply(game, "milk")
    events = act(game, "serve", cup=0, card=latte)
    assert events == [{
        "type": "served", "seat": 0, "cup": 0, "card": card_public(latte), "rush_gained": 0,
    }]
    assert cups(game, 0) == [[], [], []]
    assert supply(game, "milk") == milk + 1
    assert tabs(game, 0) == [[], [], [], []]
    assert names(game.players[0].completed) == ["Caffe Latte"]
    assert game.players[0].rush == 0


@pytest.mark.parametrize(
    "cup",
    [
        ["coffee", "steam", "milk", "ice"],  # a leftover ingredient
        ["coffee", "milk"],  # a missing one
        ["coffee", "steam", "steam"],  # the wrong multiplicity (Espresso Doppio is 2 coffee)
    ],
)
def test_a_leftover_or_missing_ingredient_completes_nothing(cup: list[str]) -> None:
    """R-FAQ-5: a cup with a leftover or missing ingredient does not complete an order."""
    game = _ready(Seat(tabs=[["Caffe Latte", "Espresso Doppio"]], cups=[cup]))
    assert legal(game, "serve") == []
    before = to_dict(game)
    for name in ("Caffe Latte", "Espresso Doppio"):
        with pytest.raises(IllegalAction) as err:
            apply(game, {"type": "serve", "cup": 0, "card": order(game, 0, name)})
        assert err.value.rule == "R-PROC"
    assert to_dict(game) == before


def test_only_the_players_own_orders() -> None:
    """R-PROC: a cup completes an order on the player's own tabs only."""
    game = _ready(Seat(cups=[["coffee", "steam"]]), {1: Seat(tabs=[["Espresso"]])})
    assert legal(game, "serve") == []
    with pytest.raises(IllegalAction):
        apply(game, {"type": "serve", "cup": 0, "card": order(game, 1, "Espresso")})


def test_each_cup_completes_at_most_one_order() -> None:
    """R-PROC: serving empties the cup, so one cup never pays for two equal orders; serving
    is repeatable with other cups."""
    game = _ready(Seat(
        tabs=[["Espresso"], [], [], ["Espresso", "Ristretto"]],
        cups=[["coffee", "steam"], [], ["steam", "coffee"]],
    ))
    first = order(game, 0, "Espresso")  # the tab-4 one: most urgent first
    assert first in game.players[0].tabs[3]
    assert legal(game, "serve")[0] == {"type": "serve", "cup": 0, "card": first}
    assert len(legal(game, "serve")) == 6  # 2 cups x 3 matching cards
    act(game, "serve", cup=0, card=first)
    assert {a["cup"] for a in legal(game, "serve")} == {2}
    with pytest.raises(IllegalAction):
        apply(game, {"type": "serve", "cup": 0, "card": order(game, 0, "Ristretto")})
    act(game, "serve", cup=2, card=order(game, 0, "Ristretto"))
    assert legal(game, "serve") == []
    assert tabs(game, 0) == [["Espresso"], [], [], []]
    assert sorted(names(game.players[0].completed)) == ["Espresso", "Ristretto"]
    assert game.served == 2


def test_a_specialty_order_gains_a_rush_token() -> None:
    """R-PROC: each completed Specialty order gains 1 Rush Token (from the supply)."""
    game = _ready(Seat(tabs=[["Green Tea", "Americano"]],
                       cups=[["tea", "steam", "water"], ["water", "coffee", "steam"]]))
    events = act(game, "serve", cup=0, card=order(game, 0, "Green Tea"))
    assert events[0]["rush_gained"] == 1
    events = act(game, "serve", cup=1, card=order(game, 0, "Americano"))
    assert events[0]["rush_gained"] == 0  # Americano is not a Specialty Menu order
    assert game.players[0].rush == 1
    assert game.rush_supply == 14


def test_an_empty_rush_supply_gives_nothing() -> None:
    """R-COMP-5 (Ruling): Rush Tokens are finite; a gain from an empty supply is nothing."""
    game = _ready(Seat(tabs=[["Black Tea"]], cups=[["tea", "steam", "water"]]),
                  {2: Seat(rush=15)})
    assert game.rush_supply == 0
    events = act(game, "serve", cup=0, card=order(game, 0, "Black Tea"))
    assert events[0]["rush_gained"] == 0
    assert game.players[0].rush == 0
    assert names(game.players[0].completed) == ["Black Tea"]


def test_serving_waits_for_the_process_phase() -> None:
    """R-TURN / R-PROC: orders are processed in phase 4, after pouring."""
    game = position(players=4, board=BOARD,
                    seats={0: Seat(tabs=[["Espresso"]], cups=[["coffee", "steam"]])})
    espresso = order(game, 0, "Espresso")
    for step in ("move", "pour"):
        assert game.phase == step
        with pytest.raises(IllegalAction):
            apply(game, {"type": "serve", "cup": 0, "card": espresso})
        if step == "move":
            act(game, "step", cell="r2c3")
            act(game, "stop")
    act(game, "return", ingredient="ice")
    act(game, "done_pouring")
    act(game, "serve", cup=0, card=espresso)


def test_the_player_ends_the_process_phase_and_the_turn() -> None:
    """R-PROC: processing is optional; an explicit end_turn ends it (R-END follows)."""
    game = _ready(Seat(tabs=[["Espresso"]], cups=[["coffee", "steam"]]))
    assert {"type": "end_turn"} in legal(game, "end_turn")
    act(game, "end_turn")
    assert game.current == 1
    assert cups(game, 0) == [["coffee", "steam"], [], []]  # unserved cups stay filled

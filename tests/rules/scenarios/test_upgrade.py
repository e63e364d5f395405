"""R-UPG: phase 1, discarding three completed orders to activate an Upgrade Tile."""

from __future__ import annotations

import pytest

from server.rules import IllegalAction, apply, score, to_dict

from .kit import Seat, act, legal, names, position, step_cells

BOARD = """
    . . . .
    . 0 . .
    . . . 1
    2 . . 3
"""
THREE = ["Espresso", "Cocoa", "Milk Tea"]


def test_three_completed_orders_open_the_upgrade_phase() -> None:
    """R-UPG: with 3 completed orders and an inactive tile the turn begins with phase 1,
    offering every inactive tile or a skip."""
    game = position(players=4, board=BOARD, seats={0: Seat(completed=THREE)})
    assert game.phase == "upgrade"
    assert legal(game, "upgrade") == [
        {"type": "upgrade", "tile": t}
        for t in ("double_meeples", "diagonal_movement", "double_corners", "double_specialties")
    ]
    assert legal(game, "skip_upgrade") == [{"type": "skip_upgrade"}]
    assert not legal(game, "step")
    events = act(game, "skip_upgrade")
    assert events == [{"type": "upgrade_skipped", "seat": 0}]
    assert game.phase == "move"
    assert len(game.players[0].completed) == 3


def test_fewer_than_three_completed_orders_go_straight_to_the_move() -> None:
    """R-UPG: the phase is skipped without 3 completed orders."""
    game = position(players=4, board=BOARD, seats={0: Seat(completed=THREE[:2])})
    assert game.phase == "move"
    with pytest.raises(IllegalAction) as err:
        apply(game, {"type": "upgrade", "tile": "double_corners"})
    assert err.value.rule == "R-UPG"


def test_all_tiles_active_means_no_upgrade_phase() -> None:
    """R-UPG: an upgrade needs an inactive tile."""
    tiles = ["double_meeples", "diagonal_movement", "double_corners", "double_specialties"]
    game = position(players=4, board=BOARD, seats={0: Seat(completed=THREE, upgrades=tiles)})
    assert game.phase == "move"


def test_activation_discards_three_and_works_at_once() -> None:
    """R-UPG: discard 3 completed cards to activate 1 tile; it works at once (here a
    diagonal step in the same turn) and discarded cards no longer score (R-SCORE)."""
    game = position(
        players=4, board=BOARD, seats={0: Seat(completed=THREE + ["Americano"])},
    )
    assert score(game.players[0])["total"] == 4
    events = act(game, "upgrade", tile="diagonal_movement")
    (event,) = events
    assert event["type"] == "upgraded" and event["seat"] == 0
    assert event["tile"] == "diagonal_movement"
    assert len(event["discarded"]) == 3
    assert sorted(names(game.discard)) == sorted(names(event["discarded"]))
    assert len(game.players[0].completed) == 1
    assert game.players[0].upgrades == [False, True, False, False]
    assert game.phase == "move"
    assert "r1c1" in step_cells(game)  # diagonal from r2c2
    assert score(game.players[0])["total"] == 1 + 2


def test_at_most_one_activation_per_turn() -> None:
    """R-UPG (Ruling): six completed orders still activate only one tile a turn."""
    game = position(
        players=4,
        board=BOARD,
        seats={0: Seat(completed=THREE + ["Americano", "Green Tea", "Cold Brew"])},
    )
    act(game, "upgrade", tile="double_corners")
    assert game.phase == "move"
    before = to_dict(game)
    with pytest.raises(IllegalAction):
        apply(game, {"type": "upgrade", "tile": "double_meeples"})
    assert to_dict(game) == before
    assert sum(game.players[0].upgrades) == 1


def test_an_active_tile_can_not_be_activated_again() -> None:
    """R-UPG: only inactive tiles are offered."""
    game = position(
        players=4, board=BOARD, seats={0: Seat(completed=THREE, upgrades=["double_corners"])},
    )
    assert "double_corners" not in {a["tile"] for a in legal(game, "upgrade")}
    with pytest.raises(IllegalAction):
        apply(game, {"type": "upgrade", "tile": "double_corners"})

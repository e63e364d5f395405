"""R-END-5 (when the game ends) and R-SCORE (who wins)."""

from __future__ import annotations

import pytest

from server.rules import GameOver, apply, final_result, legal_actions, to_dict, view

from .kit import Seat, of_type, pass_turn, position

BOARD4 = """
    . . . .
    . 0 . .
    . . . 1
    2 . . 3
"""
BOARD2 = """
    . . . .
    . 0 . .
    . . . 1
    1 . . 0
"""
FOUR = ["Cocoa", "Milk Tea", "Cold Brew", "Americano"]


def _closer(tab4: str = "Green Tea") -> Seat:
    """A seat whose turn end brings its 5th Penalty Card (R-END-PEN)."""
    return Seat(tabs=[["Espresso"], [], [], [tab4]], penalties=FOUR)


def test_the_round_is_played_out_after_closing() -> None:
    """R-END-5: once CLOSED, play goes on until the player to the starting player's right
    has had their turn, so everyone gets the same number of turns."""
    game = position(players=4, board=BOARD4, seats={1: _closer()}, start=0, to_act=0)
    for seat in (0, 1, 2):
        assert game.current == seat
        events = pass_turn(game)
        assert not of_type(events, "game_over")
        assert game.closed is (seat >= 1)
    events = pass_turn(game)
    (over,) = of_type(events, "game_over")
    assert game.phase == "over"
    assert over["result"]["reason"] == "penalties"
    assert over["result"]["turns"] == [1, 1, 1, 1]


def test_closing_on_the_last_turn_of_the_round_ends_at_once() -> None:
    """R-END-5: if the active player is the last in turn order, the game ends."""
    game = position(players=4, board=BOARD4, seats={3: _closer()}, start=0, to_act=3)
    events = pass_turn(game)
    kinds = [e["type"] for e in events]
    assert kinds[-3:] == ["closed", "turn_ended", "game_over"]
    assert "turn_started" not in kinds


def test_two_players_starting_player_closes_other_gets_one_last_turn() -> None:
    """R-END-5 (2 players): if the starting player closes, the other has one last turn."""
    game = position(players=2, board=BOARD2, seats={0: _closer(), 1: Seat(tabs=[["Cocoa"]])},
                    start=0, to_act=0)
    events = pass_turn(game)
    assert of_type(events, "closed") and not of_type(events, "game_over")
    assert game.current == 1
    events = pass_turn(game)
    assert of_type(events, "game_over")
    assert game.result is not None and game.result["turns"] == [1, 1]


def test_two_players_other_player_closes_game_ends_at_once() -> None:
    """R-END-5 (2 players): if the other player closes, the game ends at once."""
    game = position(players=2, board=BOARD2, seats={1: _closer()}, start=0, to_act=0)
    events = pass_turn(game)
    assert not game.closed and not of_type(events, "game_over")
    events = pass_turn(game)
    assert [e["type"] for e in events][-3:] == ["closed", "turn_ended", "game_over"]
    assert game.phase == "over"


def test_nothing_can_be_done_after_the_game_is_over() -> None:
    """R-END-5: a finished game refuses every action with `game_over` and changes nothing."""
    game = position(players=4, board=BOARD4, seats={3: _closer()}, start=0, to_act=3)
    pass_turn(game)
    assert legal_actions(game) == []
    assert view(game, game.current)["legal"] == []
    assert view(game, game.current)["can_undo"] is False
    before = to_dict(game)
    for action in ({"type": "end_turn"}, {"type": "undo"}, {"type": "step", "cell": "r1c1"}):
        with pytest.raises(GameOver) as err:
            apply(game, action)
        assert err.value.code == "game_over"
    assert to_dict(game) == before


def test_score_is_orders_plus_two_per_tile_minus_penalties() -> None:
    """R-SCORE: +1 per completed order held, +2 per active tile, -1 per Penalty Card."""
    game = position(players=3, board=BOARD4.replace("3", "."), seats={
        0: Seat(completed=["Cocoa", "Espresso"], upgrades=["double_corners"],
                penalties=["Milk Tea"]),
        1: Seat(penalties=["Americano", "Cold Brew"]),
    })
    scores = final_result(game)["scores"]
    assert [(s["orders"], s["upgrades"], s["penalties"], s["total"]) for s in scores] == [
        (2, 2, -1, 3), (0, 0, -2, -2), (0, 0, 0, 0),
    ]
    assert scores[0]["tiles"] == ["double_corners"]
    assert view(game)["players"][0]["score"]["total"] == 3


@pytest.mark.parametrize(
    ("seats", "winners", "places"),
    [
        # Totals differ: the higher wins.
        ({0: Seat(completed=["Cocoa"]), 1: Seat(completed=["Espresso", "Milk Tea"])},
         [1], [2, 1, 3]),
        # Totals tie at 3; more completed orders wins (3 orders beat 1 order + 1 tile).
        ({0: Seat(completed=["Cocoa"], upgrades=["double_meeples"]),
          1: Seat(completed=["Espresso", "Milk Tea", "Cold Brew"])},
         [1], [2, 1, 3]),
        # Totals and orders tie; more Rush Tokens wins.
        ({0: Seat(completed=["Cocoa"], rush=2), 1: Seat(completed=["Espresso"], rush=1)},
         [0], [1, 2, 3]),
        # Still tied: a shared win.
        ({0: Seat(completed=["Cocoa"], rush=1), 1: Seat(completed=["Espresso"], rush=1)},
         [0, 1], [1, 1, 3]),
    ],
)
def test_tie_breaks(seats: dict[int, Seat], winners: list[int], places: list[int]) -> None:
    """R-SCORE: ties go to most completed orders, then most Rush Tokens; still tied: a
    shared win."""
    game = position(players=3, board=BOARD4.replace("3", "."), seats=seats)
    result = final_result(game)
    assert result["winners"] == winners
    assert result["places"] == places

"""R-MOVE (with R-FAQ-1, -2, -3, -6 and the R-MOVE-DEADEND ruling): phase 2 of a turn."""

from __future__ import annotations

import pytest

from server.rules import Game, IllegalAction, apply, legal_actions, to_dict

from .kit import (
    Seat,
    act,
    can,
    fill,
    hand,
    legal,
    meeple_cells,
    of_type,
    position,
    step_cells,
    supply,
    walk,
)

# Four meeples well apart; seat 0 in the middle of the board.
SPREAD = """
    1 . . .
    . 0 . .
    . . . .
    2 . . 3
"""


def _spread(**seat0: object) -> Game:
    return position(players=4, board=SPREAD, seats={0: Seat(**seat0)})  # type: ignore[arg-type]


def test_a_move_takes_at_least_one_step() -> None:
    """R-MOVE: moving is mandatory; `stop` is refused before the first step."""
    game = _spread()
    assert game.phase == "move"
    assert not legal(game, "stop")
    before = to_dict(game)
    with pytest.raises(IllegalAction) as err:
        apply(game, {"type": "stop"})
    assert err.value.rule == "R-MOVE"
    assert to_dict(game) == before


def test_fewer_than_three_steps_is_allowed() -> None:
    """R-FAQ-1: a player may stop after one step."""
    game = _spread()
    events = act(game, "step", cell="r2c3")
    assert of_type(events, "moved") == [{
        "type": "moved", "seat": 0, "meeple": 0, "from": "r2c2", "to": "r2c3",
        "gained": {"ice": 1}, "rush_spent": False,
    }]
    events = act(game, "stop")
    assert events == [{"type": "stopped", "seat": 0, "cell": "r2c3", "steps": 1}]
    assert game.phase == "pour"
    assert hand(game) == {"ice": 1}
    assert meeple_cells(game, 0) == ["r2c3"]


def test_three_steps_are_free_then_the_move_ends_without_rush_tokens() -> None:
    """R-MOVE: the base allowance is 3 steps."""
    game = _spread()
    steps = walk(game, "r2c3", "r3c3", "r3c2")
    assert [e["rush_spent"] for e in steps] == [False, False, False]
    assert legal(game, "step") == []
    assert legal_actions(game) == [{"type": "stop"}]
    assert hand(game) == {"ice": 1, "milk": 1, "steam": 1}


def test_each_rush_token_adds_a_step_and_returns_to_the_supply() -> None:
    """R-FAQ-1 / R-MOVE: only steps beyond 3 cost a Rush Token, one each, any number of
    them; spent tokens go back to the supply."""
    game = _spread(rush=6)
    walk(game, "r2c3", "r2c2", "r2c3")
    assert {a["rush"] for a in legal(game, "step")} == {True}
    events = walk(game, "r2c2", "r2c3", "r2c2", "r2c3", "r2c2", "r2c3")
    assert [e["rush_spent"] for e in events] == [True] * 6
    assert game.players[0].rush == 0
    assert game.rush_supply == 15
    assert legal(game, "step") == []
    act(game, "stop")
    # 9 steps, alternating: 5 ice from r2c3 and 4 milk from re-entering r2c2 (R-FAQ-2).
    assert hand(game) == {"ice": 5, "milk": 4}


def test_a_held_rush_token_need_not_be_spent() -> None:
    """R-MOVE: a player may stop after fewer steps and keep their Rush Tokens."""
    game = _spread(rush=2)
    walk(game, "r2c3", "r3c3", "r3c2")
    act(game, "stop")
    assert game.players[0].rush == 2


def test_steps_are_orthogonal() -> None:
    """R-MOVE: a step goes to an orthogonally adjacent cell."""
    game = _spread()
    assert step_cells(game) == {"r1c2", "r3c2", "r2c1", "r2c3"}
    before = to_dict(game)
    with pytest.raises(IllegalAction):
        apply(game, {"type": "step", "cell": "r3c3"})
    with pytest.raises(IllegalAction):
        apply(game, {"type": "step", "cell": "r2c4"})
    assert to_dict(game) == before


def test_diagonal_movement_adds_the_diagonals() -> None:
    """R-MOVE / R-COMP-4: with Diagonal Movement a step may also go diagonally."""
    game = _spread(upgrades=["diagonal_movement"])
    assert step_cells(game) == {
        "r1c1", "r1c2", "r1c3", "r2c1", "r2c3", "r3c1", "r3c2", "r3c3",
    }
    events = walk(game, "r3c3", "r4c4")  # r4c4 holds seat 3: passing through is fine
    assert [e["gained"] for e in events] == [{"milk": 1}, {"steam": 1}]


def test_revisiting_and_ending_on_the_start_cell() -> None:
    """R-FAQ-2: a path may revisit cells and end where it started; re-entering the start
    cell gains its ingredient like any other step (the start cell alone gives nothing)."""
    game = _spread()
    events = walk(game, "r2c3", "r2c2", "r2c3")
    assert [e["gained"] for e in events] == [{"ice": 1}, {"milk": 1}, {"ice": 1}]
    game = _spread()
    walk(game, "r2c3", "r2c2")
    assert can(game, "stop")
    act(game, "stop")
    assert meeple_cells(game, 0) == ["r2c2"]
    assert hand(game) == {"ice": 1, "milk": 1}


def test_passing_through_an_occupied_cell_gains_its_ingredient_but_may_not_end_there() -> None:
    """R-FAQ-3: moving through another meeple's cell gains its ingredient; the move may not
    end there."""
    game = position(
        players=4,
        board="""
            . . . .
            . 0 1 .
            . . . .
            2 . . 3
        """,
    )
    events = act(game, "step", cell="r2c3")  # seat 1 stands here
    assert of_type(events, "moved")[0]["gained"] == {"ice": 1}
    assert not can(game, "stop")
    with pytest.raises(IllegalAction) as err:
        apply(game, {"type": "stop"})
    assert err.value.rule == "R-MOVE"
    act(game, "step", cell="r2c4")
    act(game, "stop")
    assert meeple_cells(game, 0) == ["r2c4"] and meeple_cells(game, 1) == ["r2c3"]
    assert hand(game) == {"ice": 1, "water": 1}


def test_two_players_choose_which_meeple_moves() -> None:
    """R-MOVE (2 players): choose one of two meeples; the other stays. The move may pass
    the player's own other meeple but not end on it."""
    game = position(
        players=2,
        board="""
            . . . .
            . 0 0 .
            . . . .
            1 . . 1
        """,
    )
    assert game.phase == "move"
    assert [a["meeple"] for a in legal(game, "choose_meeple")] == [0, 1]
    assert not legal(game, "step")
    events = act(game, "choose_meeple", meeple=0)
    assert events == [{"type": "meeple_chosen", "seat": 0, "meeple": 0}]
    assert not legal(game, "choose_meeple")
    act(game, "step", cell="r2c3")  # onto meeple 1
    assert not can(game, "stop")
    act(game, "step", cell="r1c3")
    act(game, "stop")
    assert meeple_cells(game, 0) == ["r1c3", "r2c3"]


def test_double_meeples_doubles_a_cell_with_another_meeple() -> None:
    """R-MOVE: x2 with Double Meeples if the cell holds another meeple, any player's."""
    game = _spread(upgrades=["double_meeples"])
    assert {a["cell"]: a["gain"] for a in legal(game, "step")}["r1c2"] == {"caramel": 1}
    walk(game, "r2c1", "r1c1")  # seat 1 stands on r1c1
    assert hand(game) == {"coffee": 1, "ice": 2}


def test_double_meeples_counts_the_players_own_other_meeple() -> None:
    """R-MOVE (2 players): "your own other Meeple included"."""
    game = position(
        players=2,
        board="""
            . . . .
            . 0 0 .
            . . . .
            1 . . 1
        """,
        seats={0: Seat(upgrades=["double_meeples"])},
    )
    act(game, "choose_meeple", meeple=0)
    events = act(game, "step", cell="r2c3")
    assert events[0]["gained"] == {"ice": 2}


def test_double_corners_doubles_the_four_corners() -> None:
    """R-MOVE: x2 with Double Corners on a corner cell."""
    game = position(
        players=4,
        board="""
            . 0 . .
            . . . 1
            . . . .
            2 . . 3
        """,
        seats={0: Seat(upgrades=["double_corners"])},
    )
    events = walk(game, "r1c1", "r2c1")
    assert [e["gained"] for e in events] == [{"ice": 2}, {"coffee": 1}]


def test_double_specialties_doubles_the_specialty_cells() -> None:
    """R-MOVE: x2 with Double Specialties on caramel, chocolate, water and tea cells."""
    game = _spread(upgrades=["double_specialties"])
    events = walk(game, "r1c2", "r1c3", "r2c3")
    assert [e["gained"] for e in events] == [{"caramel": 2}, {"steam": 1}, {"ice": 1}]


@pytest.mark.parametrize(
    ("upgrades", "gain"),
    [
        ((), 1),
        (("double_meeples",), 2),
        (("double_corners",), 2),
        (("double_meeples", "double_corners"), 4),
        (("double_meeples", "double_corners", "double_specialties"), 4),
    ],
)
def test_upgrade_effects_stack(upgrades: tuple[str, ...], gain: int) -> None:
    """R-FAQ-6: a corner cell with another meeple gives x4 with Double Meeples and Double
    Corners (a corner is never a specialty cell, so that tile adds nothing here)."""
    game = position(
        players=4,
        board="""
            1 0 . .
            . . . .
            . . . .
            2 . . 3
        """,
        seats={0: Seat(upgrades=upgrades)},
    )
    (step,) = [a for a in legal(game, "step") if a["cell"] == "r1c1"]
    assert step["gain"] == {"ice": gain}
    events = act(game, "step", cell="r1c1")
    assert events[0]["gained"] == {"ice": gain}
    assert hand(game) == {"ice": gain}


def test_specialty_with_another_meeple_stacks_too() -> None:
    """R-FAQ-6 / R-MOVE: Double Meeples x Double Specialties on an occupied tea cell."""
    game = position(
        players=3,
        board="""
            . . . .
            0 . . .
            1 . . .
            . . . 2
        """,
        seats={0: Seat(upgrades=["double_meeples", "double_specialties"])},
    )
    assert act(game, "step", cell="r3c1")[0]["gained"] == {"tea": 4}


def test_a_short_supply_gives_what_is_left() -> None:
    """R-MOVE / R-COMP-2: if the supply lacks enough of an ingredient, take what is there."""
    game = position(
        players=4,
        board="""
            . . 0 .
            . . . .
            1 . . .
            2 . . 3
        """,
        seats={
            0: Seat(upgrades=["double_corners"]),
            1: Seat(cups=fill("coffee", 12)),
            2: Seat(cups=fill("coffee", 5)),
        },
    )
    assert supply(game, "coffee") == 1
    (step,) = [a for a in legal(game, "step") if a["cell"] == "r1c4"]
    assert step["gain"] == {"coffee": 1}
    act(game, "step", cell="r1c4")
    assert supply(game, "coffee") == 0
    assert act(game, "step", cell="r2c4")[0]["gained"] == {"water": 1}
    assert act(game, "step", cell="r1c4")[0]["gained"] == {"coffee": 0}
    assert hand(game) == {"coffee": 1, "water": 1}


# R-MOVE-DEADEND: seat 0 on r1c3; r1c1 is a corner held by seat 1 whose two neighbours
# hold seats 2 and 3, so once on r1c1 only two more steps lead back to a free cell.
POCKET = """
    1 2 0 .
    3 . . .
    . . . .
    . . . .
"""


@pytest.mark.parametrize("rush", [0, 1])
def test_a_step_must_leave_a_way_to_a_free_cell(rush: int) -> None:
    """R-MOVE-DEADEND: a step is legal only if a cell free of other meeples can still be
    reached within the steps left plus the Rush Tokens held."""
    game = position(players=4, board=POCKET, seats={0: Seat(rush=rush)})
    act(game, "step", cell="r1c2")  # through seat 2: 2 free steps remain
    assert ("r1c1" in step_cells(game)) is (rush == 1)
    assert {"r1c3", "r2c2"} <= step_cells(game)
    if rush == 0:
        before = to_dict(game)
        with pytest.raises(IllegalAction):
            apply(game, {"type": "step", "cell": "r1c1"})
        assert to_dict(game) == before
        return
    # With one Rush Token: r1c1, back through r1c2, and home on the 4th (paid) step.
    walk(game, "r1c1", "r1c2")
    assert step_cells(game) == {"r1c3", "r2c2"}  # the paid step leaves no reach for r1c1
    assert not can(game, "stop")
    assert act(game, "step", cell="r1c3")[0]["rush_spent"] is True
    act(game, "stop")
    assert hand(game) == {"caramel": 2, "ice": 1, "steam": 1}


def test_the_last_free_step_may_not_end_on_a_meeple() -> None:
    """R-MOVE-DEADEND: the third step with no Rush Token left can not enter an occupied
    cell, since the move would have to end there."""
    game = position(
        players=4,
        board="""
            0 . . .
            . . . .
            . . . .
            1 2 . 3
        """,
    )
    walk(game, "r2c1", "r3c1")
    assert step_cells(game) == {"r2c1", "r3c2"}


def test_the_start_cell_counts_as_free() -> None:
    """R-MOVE-DEADEND: the mover's own start cell is free, so a step onto a meeple whose
    only free neighbour is the mover's start cell is legal."""
    game = position(
        players=4,
        board="""
            0 1 2 .
            . 3 . .
            . . . .
            . . . .
        """,
        seats={0: Seat(rush=1)},
    )
    walk(game, "r1c2", "r1c3")  # through seats 1 and 2
    # One free step and one Rush Token left: r1c2 is legal only because r1c1 is free.
    assert "r1c2" in step_cells(game)
    act(game, "step", cell="r1c2")
    assert step_cells(game) == {"r1c1"}
    assert act(game, "step", cell="r1c1")[0]["rush_spent"] is True
    act(game, "stop")
    assert meeple_cells(game, 0) == ["r1c1"]
    assert hand(game) == {"caramel": 2, "steam": 1, "ice": 1}


def test_an_echoed_preview_must_be_the_true_one() -> None:
    """R-MOVE: a step may carry its "gain" and "rush" preview back; a false one is refused."""
    game = _spread()
    (step,) = [a for a in legal(game, "step") if a["cell"] == "r2c3"]
    before = to_dict(game)
    with pytest.raises(IllegalAction):
        apply(game, {**step, "gain": {"ice": 2}})
    with pytest.raises(IllegalAction):
        apply(game, {**step, "rush": True})
    assert to_dict(game) == before
    apply(game, step)
    assert hand(game) == {"ice": 1}

"""R-COMP: the board, the supply, the deck and the pieces, as the rules table lists them."""

from __future__ import annotations

from collections import Counter

import pytest

from server.rules import card_public, new_game, view

from .kit import Seat, act, fill, hand, legal, of_type, position, supply

# R-COMP-1, copied from RULES.md: `*` marks a Specialty cell.
BOARD = """
ice      caramel*  steam      coffee
coffee   milk      ice        water*
tea*     steam     milk       coffee
milk     ice       chocolate* steam
"""
CELLS = {
    f"r{r + 1}c{c + 1}": mark
    for r, row in enumerate(BOARD.split("\n")[1:5])
    for c, mark in enumerate(row.split())
}
CORNERS = {"r1c1", "r1c4", "r4c1", "r4c4"}


def _neighbour(cell: str) -> str:
    r, c = int(cell[1]), int(cell[3])
    return f"r{r + 1 if r < 4 else r - 1}c{c}"


def _stepping_onto(cell: str, upgrades: tuple[str, ...] = ()) -> dict:
    """The legal step onto `cell` for seat 0, standing next to it; the others far away."""
    here = _neighbour(cell)
    others = [c for c in CELLS if c not in (cell, here)][:3]
    game = position(
        players=4,
        board={0: [here], 1: [others[0]], 2: [others[1]], 3: [others[2]]},
        seats={0: Seat(upgrades=upgrades)},
    )
    (step,) = [a for a in legal(game, "step") if a["cell"] == cell]
    return step


@pytest.mark.parametrize("cell", sorted(CELLS))
def test_each_cell_gives_its_ingredient(cell: str) -> None:
    """R-COMP-1: stepping onto a cell gains one token of the ingredient printed on it."""
    assert _stepping_onto(cell)["gain"] == {CELLS[cell].rstrip("*"): 1}


@pytest.mark.parametrize("cell", sorted(CELLS))
def test_specialty_and_corner_cells_are_the_marked_ones(cell: str) -> None:
    """R-COMP-1: Double Specialties doubles exactly the starred cells, Double Corners the
    four corners."""
    ingredient = CELLS[cell].rstrip("*")
    specialty = _stepping_onto(cell, ("double_specialties",))["gain"][ingredient]
    corner = _stepping_onto(cell, ("double_corners",))["gain"][ingredient]
    assert specialty == (2 if CELLS[cell].endswith("*") else 1)
    assert corner == (2 if cell in CORNERS else 1)


def test_the_supply_holds_102_tokens() -> None:
    """R-COMP-2: coffee 18; milk, steam, ice, chocolate, caramel, tea, water 12 each."""
    supply = view(new_game(seed=3, players=4))["supply"]
    assert supply == {
        "coffee": 18, "milk": 12, "steam": 12, "ice": 12,
        "chocolate": 12, "caramel": 12, "tea": 12, "water": 12,
    }
    assert sum(supply.values()) == 102


def test_the_supply_is_finite() -> None:
    """R-COMP-2 / R-MOVE: with every caramel token in cups, a caramel step gains nothing."""
    game = position(
        players=4,
        board="""
            . 0 . .
            1 . . .
            . . . 2
            . . 3 .
        """,
        seats={1: Seat(cups=fill("caramel", 12))},
    )
    act(game, "step", cell="r1c3")
    events = act(game, "step", cell="r1c2")  # back onto the caramel cell: start cell re-entered
    assert of_type(events, "moved")[0]["gained"] == {"caramel": 0}
    assert supply(game, "caramel") == 0
    assert hand(game) == {"steam": 1}


def test_the_deck_sheet() -> None:
    """R-COMP-3: 80 cards; 30 Specialty; 4 two-, 58 three- and 18 four-ingredient recipes."""
    cards = [card_public(i) for i in range(80)]
    sizes = Counter(sum(c["recipe"].values()) for c in cards)
    assert sizes == {2: 4, 3: 58, 4: 18}
    assert sum(c["specialty"] for c in cards) == 30
    by_name = Counter(c["name"] for c in cards)
    assert len(by_name) == 33
    assert by_name["Caramel Caffe Freddo"] == 6
    assert by_name["Espresso Doppio"] == 4
    doppio = next(c for c in cards if c["name"] == "Espresso Doppio")
    assert doppio["recipe"] == {"coffee": 2, "steam": 1}
    assert not doppio["specialty"]
    mocha = next(c for c in cards if c["name"] == "Caffe Mocha")
    assert mocha["recipe"] == {"coffee": 1, "steam": 1, "milk": 1, "chocolate": 1}
    assert mocha["specialty"]


def test_every_card_starts_in_the_deck_or_on_a_tab() -> None:
    """R-COMP-3: a 4-player deal takes 3 + 2 + 2 + 2 = 9 cards; the other 71 stay in the deck."""
    game = new_game(seed=11, players=4)
    dealt = [c for p in game.players for tab in p.tabs for c in tab]
    assert len(dealt) == 9
    assert sorted(dealt + game.deck) == list(range(80))


def test_a_player_has_three_cups_of_four_and_four_tiles() -> None:
    """R-COMP-4: 3 Cups, at most 4 tokens a Cup (Ruling), 4 Upgrade Tiles."""
    game = position(
        players=3,
        board="""
            . . . .
            . . 0 .
            . . . 1
            . . . 2
        """,
        seats={0: Seat(cups=[["ice"] * 4, ["milk"] * 3])},
    )
    me = view(game, 0)["players"][0]
    assert len(me["cups"]) == 3
    assert set(me["upgrades"]) == {
        "double_meeples", "diagonal_movement", "double_corners", "double_specialties",
    }
    act(game, "step", cell="r2c2")  # milk
    act(game, "stop")
    pours = {a["cup"] for a in legal(game, "pour")}
    assert pours == {1, 2}  # cup 0 is full
    act(game, "pour", ingredient="milk", cup=1)
    assert not legal(game, "pour")
    assert legal(game, "done_pouring")


def test_rush_tokens_are_fifteen_and_players_start_with_none() -> None:
    """R-COMP-5: 15 Rush Tokens in the supply; nobody holds one at the start."""
    v = view(new_game(seed=5, players=3))
    assert v["rush_supply"] == 15
    assert [p["rush"] for p in v["players"]] == [0, 0, 0]
    assert v["closed"] is False  # the Starting Player Token begins OPEN (R-SETUP-2)


"""R-SETUP: the shuffle, the deal, meeple placement, the starting tokens, the first turn."""

from __future__ import annotations

import pytest

from server.rules import IllegalAction, MalformedAction, apply, new_game, to_dict, view
from server.rules.data import STARTER_CARDS

from .kit import (
    act,
    cups,
    legal,
    meeple_cells,
    names,
    of_type,
    play_turn,
    step_cells,
    supply,
)


def _tab_sizes(game, seat: int) -> list[int]:
    return [len(tab) for tab in game.players[seat].tabs]


def _place_all(game, cells: list[str]) -> list[dict]:
    events: list[dict] = []
    for cell in cells:
        events += act(game, "place", cell=cell)
    return events


def test_same_seed_same_game_other_seed_other_deck() -> None:
    """R-SETUP-1: the shuffle is seeded and reproducible."""
    assert to_dict(new_game(seed=42, players=4)) == to_dict(new_game(seed=42, players=4))
    assert new_game(seed=42, players=4).deck != new_game(seed=43, players=4).deck


def test_random_starting_player_comes_from_the_seed() -> None:
    """R-SETUP-1: a random starting player is drawn from the seed, so it is reproducible."""
    starts = {new_game(seed=s, players=4).start for s in range(40)}
    assert starts == {0, 1, 2, 3}
    assert all(new_game(seed=s, players=3).start == new_game(seed=s, players=3).start
               for s in range(10))


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("start", [0, 1])
def test_the_deal(players: int, start: int) -> None:
    """R-SETUP-2: the starting player 2 cards on tab 1 and 1 on tab 2, everyone else 1 and
    1; the Starting Player Token is OPEN."""
    game = new_game(seed=9, players=players, starting_player=start)
    for seat in range(players):
        expected = [2, 1, 0, 0] if seat == start else [1, 1, 0, 0]
        assert _tab_sizes(game, seat) == expected
    assert len(game.deck) == 80 - 2 * players - 1
    assert game.closed is False
    assert all(p.completed == [] and p.penalties == [] for p in game.players)


@pytest.mark.parametrize(
    ("players", "start", "order"),
    [
        (4, 0, [3, 2, 1, 0]),
        (4, 2, [1, 0, 3, 2]),
        (3, 1, [0, 2, 1]),
        (3, 0, [2, 1, 0]),
        (2, 0, [1, 0, 1, 0]),
        (2, 1, [0, 1, 0, 1]),
    ],
)
def test_placement_order(players: int, start: int, order: list[int]) -> None:
    """R-SETUP-3: 3-4 players from the starter's right going anticlockwise, the starter
    last; 2 players alternate, the non-starting player first."""
    game = new_game(seed=1, players=players, starting_player=start)
    seen = []
    for k in range(len(order)):
        assert game.phase == "placement"
        seen.append(game.current)
        act(game, "place", cell=f"r{k + 1}c1" if k < 4 else "r1c2")
    assert seen == order
    assert game.phase != "placement"


def test_meeples_go_on_empty_cells_only() -> None:
    """R-SETUP-3: two meeples can not share a cell."""
    game = new_game(seed=1, players=3, starting_player=0)
    act(game, "place", cell="r2c2")
    assert {a["cell"] for a in legal(game, "place")} == {
        f"r{r}c{c}" for r in range(1, 5) for c in range(1, 5)
    } - {"r2c2"}
    before = to_dict(game)
    with pytest.raises(IllegalAction) as err:
        apply(game, {"type": "place", "cell": "r2c2"})
    assert err.value.code == "illegal_action" and err.value.rule == "R-SETUP-3"
    assert to_dict(game) == before


def test_tokens_are_taken_only_once_every_meeple_is_placed() -> None:
    """R-SETUP-4: nobody takes a token while meeples are still being placed; then each
    player takes the token under their meeple into a cup (3-4 players: automatic)."""
    game = new_game(seed=1, players=4, starting_player=0)
    # Placement order 3, 2, 1, 0 (R-SETUP-3).
    events = _place_all(game, ["r1c2", "r1c4", "r3c1"])
    assert not of_type(events, "starting_token")
    assert supply(game, "caramel") == 12 and all(cups(game, s) == [[], [], []] for s in range(4))
    events = act(game, "place", cell="r1c1")
    assert [(e["seat"], e["ingredient"]) for e in of_type(events, "starting_token")] == [
        (0, "ice"), (1, "tea"), (2, "coffee"), (3, "caramel"),
    ]
    assert cups(game, 3) == [["caramel"], [], []]
    assert cups(game, 0) == [["ice"], [], []]
    assert supply(game, "caramel") == 11 and supply(game, "coffee") == 17
    # R-SETUP-5: the first turn is the starting player's.
    assert of_type(events, "turn_started") == [
        {"type": "turn_started", "seat": 0, "turn": 1, "phase": "move"}
    ]


@pytest.mark.parametrize("second_cup", [0, 2])
def test_two_players_choose_the_cup_for_their_second_token(second_cup: int) -> None:
    """R-SETUP-4 (2 players): the first token goes into a cup automatically, then the
    starting player first, each chooses the same cup or another for the second."""
    game = new_game(seed=1, players=2, starting_player=1)
    # Order 0, 1, 0, 1: seat 0 on r1c4 (coffee) and r2c4 (water), seat 1 on r4c1 and r4c3.
    _place_all(game, ["r1c4", "r4c1", "r2c4", "r4c3"])
    assert game.phase == "starting_cup"
    assert game.current == 1  # the starting player chooses first
    assert cups(game, 1) == [["milk"], [], []]
    assert [a["cup"] for a in legal(game, "starting_cup")] == [0, 1, 2]
    act(game, "starting_cup", cup=second_cup)
    assert game.current == 0
    act(game, "starting_cup", cup=1)
    expected = [["milk"], [], []]
    expected[second_cup] = sorted(expected[second_cup] + ["chocolate"])
    assert cups(game, 1) == expected
    assert cups(game, 0) == [["coffee"], ["water"], []]
    assert game.phase == "move" and game.current == 1  # R-SETUP-5
    assert game.moving is None  # 2 players: the meeple to move is chosen (R-MOVE)


def test_turn_order_is_clockwise_from_the_starting_player() -> None:
    """R-SETUP-5: turns go "to the left": start, start + 1, ..."""
    game = new_game(seed=4, players=3, starting_player=2)
    _place_all(game, ["r1c1", "r4c4", "r2c2"])
    seen = []
    for _ in range(4):
        seen.append(game.current)
        taken = {c for seat in range(3) for c in meeple_cells(game, seat)}
        play_turn(game, next(c for c in sorted(step_cells(game)) if c not in taken))
    assert seen == [2, 0, 1, 2]


def test_new_game_refuses_bad_options() -> None:
    """R-SETUP: 2 to 4 players, a seat as starting player, a 64-bit seed."""
    for bad in (
        {"seed": 1, "players": 1},
        {"seed": 1, "players": 5},
        {"seed": -1, "players": 2},
        {"seed": 1 << 64, "players": 2},
        {"seed": 1, "players": 3, "starting_player": 3},
    ):
        with pytest.raises(MalformedAction):
            new_game(**bad)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_starter_orders_variant(players: int) -> None:
    """R-SETUP-V1: each player gets one of the four two-ingredient cards on tab 1 in place
    of a deck card; the starting player still gets an extra deck card on tab 1; tab 2
    comes from the deck; the starter cards left over are set aside face up."""
    game = new_game(seed=21, players=players, starting_player=0, starter_orders=True)
    starters = set(STARTER_CARDS)
    assert names(sorted(starters)) == ["Ristretto"] * 2 + ["Espresso"] * 2
    for seat, player in enumerate(game.players):
        tab1, tab2 = player.tabs[0], player.tabs[1]
        assert len([c for c in tab1 if c in starters]) == 1
        assert len(tab1) == (2 if seat == 0 else 1)
        assert len(tab2) == 1 and tab2[0] not in starters
    assert len(game.set_aside) == 4 - players
    assert set(game.set_aside) <= starters
    assert not starters & set(game.deck)
    assert len(game.deck) == 76 - players - 1
    shown = view(game, None)
    assert shown["options"]["starter_orders"] is True
    assert [c["id"] for c in shown["set_aside"]] == sorted(game.set_aside)


def test_starter_orders_are_off_by_default() -> None:
    """R-SETUP-V1: a house option, off unless asked for."""
    game = new_game(seed=21, players=4)
    assert game.set_aside == []
    assert view(game)["options"]["starter_orders"] is False

"""Known answers for the random generator, the deal and whole seeded games (R-SETUP-1).

A stored game is (seed, options, actions): it replays only while the generator, the deal
and the rules give the same answers. These tests pin those answers. If one fails after a
change on purpose, the change alters stored games: bump RULES_VERSION (server/rules/data.py)
and record the new answers under the new version; never edit the answers of an old one.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from server.rules import RULES_VERSION, apply, legal_actions, new_game
from server.rules.setup import SplitMix64


def digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def test_splitmix64_matches_the_published_reference() -> None:
    """SplitMix64 from seed 0 gives the reference outputs (Vigna's splitmix64.c), so the
    generator is the published one and not merely stable."""
    rng = SplitMix64(0)
    assert [rng.next() for _ in range(4)] == [
        0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F, 0xF88BB8A8724C81EC,
    ]


def test_below_and_shuffle_known_answers() -> None:
    """`below` (rejection sampling) and the Fisher-Yates `shuffle` built on it."""
    rng = SplitMix64(42)
    assert [rng.below(n) for n in (2, 3, 4, 80, 1000)] == [1, 1, 2, 4, 250]
    items = list(range(10))
    SplitMix64(42).shuffle(items)
    assert items == [0, 9, 5, 8, 6, 4, 7, 2, 1, 3]


# (seed, players, starter_orders) -> (starting player, tabs 1-2 per seat by card id,
# the next three cards to be drawn, a digest of the whole deck order, set-aside cards)
DEALS: dict[tuple[int, int, bool], tuple[int, list[Any], list[int], str, list[int]]] = {
    (1, 2, False): (1, [[[40], [32]], [[39, 48], [29]]], [45, 51, 52], "5beccdf8cbd95536", []),
    (7, 3, False): (0, [[[44, 60], [21]], [[40], [57]], [[73], [52]]], [49, 41, 75],
                    "6f224fa81bf6ae13", []),
    (2026, 4, False): (3, [[[59], [15]], [[6], [73]], [[36], [50]], [[61, 28], [66]]],
                       [7, 20, 71], "ed74efb6289a71d7", []),
    (99, 4, True): (3, [[[1], [11]], [[2], [59]], [[3], [18]], [[0, 20], [53]]], [17, 7, 36],
                    "9ac4b186ef4d6705", []),
    (5, 3, True): (2, [[[2], [39]], [[1], [74]], [[0, 57], [65]]], [68, 48, 15],
                   "12b5d6d05585dddf", [3]),
}


@pytest.mark.parametrize("key", sorted(DEALS))
def test_the_deal_known_answers(key: tuple[int, int, bool]) -> None:
    """R-SETUP-1/2 (and R-SETUP-V1): a seed deals the same starting player, tabs and deck."""
    seed, players, starter_orders = key
    game = new_game(seed=seed, players=players, starter_orders=starter_orders)
    got = (game.start, [p.tabs[:2] for p in game.players], game.deck[-3:][::-1],
           digest(game.deck), game.set_aside)
    assert got == DEALS[key]
    assert all(tab == [] for p in game.players for tab in p.tabs[2:])


def playout(seed: int, players: int, starter_orders: bool) -> tuple[Any, ...]:
    """A whole game of actions drawn by their own SplitMix64 from the legal actions (in a
    canonical order, so only the set of legal actions matters, not how it is listed)."""
    game = new_game(seed=seed, players=players, starter_orders=starter_orders)
    pick = SplitMix64(seed ^ 0xC0FFEE)
    actions = []
    while game.phase != "over":
        legal = sorted(legal_actions(game), key=lambda a: json.dumps(a, sort_keys=True))
        action = legal[pick.below(len(legal))]
        actions.append([game.current, action])
        apply(game, action)
    result = game.result
    assert result is not None
    return (len(actions), digest(actions), result["reason"],
            [s["total"] for s in result["scores"]], result["winners"], result["turns"])


# RULES_VERSION -> {(seed, players, starter_orders): (action count, digest of the actions,
# end reason, totals, winners, turns)}
GAMES: dict[int, dict[tuple[int, int, bool], tuple[Any, ...]]] = {
    2: {
        (1, 2, False): (141, "57b017d6675b0843", "penalties", [-4, -5], [0], [6, 6]),
        (7, 3, False): (102, "f04e2aa0af433615", "stall", [-3, -2, -2], [2], [4, 4, 4]),
        (2026, 4, False): (156, "e2384088ff28e4ed", "stall", [-2, -2, -2, -3], [0, 1, 2],
                           [4, 4, 4, 4]),
        (99, 4, True): (143, "29f5e2e86ae56fe3", "stall", [-2, -2, -2, -3], [0, 2],
                        [4, 4, 4, 4]),
    },
}


@pytest.mark.parametrize("key", sorted(GAMES[max(GAMES)]))
def test_seeded_games_known_answers(key: tuple[int, int, bool]) -> None:
    """Whole seeded games replay to the same actions and result under this RULES_VERSION."""
    assert RULES_VERSION in GAMES, (
        f"no known answers for rules version {RULES_VERSION}: record them in GAMES")
    assert playout(*key) == GAMES[RULES_VERSION][key]

"""Known answers for the random generator, the deal and whole seeded games (R-SETUP-1).

A stored game is (seed, options, actions): it replays only while the generator, the deal
and the rules give the same answers. These tests pin those answers, the games as recorded
games (tests/rules/games/v<version>/), not as random playouts, which any new action type
would change. If one fails after a change on purpose, the change alters stored games: bump
RULES_VERSION (server/rules/data.py), record this version's games, and keep the old version
in REPLAYED_VERSIONS only if its games still replay; never edit the answers of an old one.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from server.rules import REPLAYED_VERSIONS, RULES_VERSION, new_game
from server.rules.setup import SplitMix64
from tests.rules.games.replay import state_digest


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


GAMES = Path(__file__).resolve().parent / "games"


def recorded(version: int) -> list[Path]:
    return sorted((GAMES / f"v{version}").glob("*.json"))


def test_every_replayed_version_has_recorded_games() -> None:
    """This version's games are recorded (python -m tests.rules.games.record), and so are
    those of every older version the engine claims to replay the same."""
    assert RULES_VERSION in REPLAYED_VERSIONS
    for version in REPLAYED_VERSIONS:
        assert recorded(version), f"no recorded games of rules version {version}"


@pytest.mark.parametrize("path", [p for v in sorted(REPLAYED_VERSIONS) for p in recorded(v)],
                         ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_recorded_games_replay_to_their_recorded_state(path: Path) -> None:
    """A stored game, (seed, options, [seat, action] ...) as the journal keeps it, replays
    under this engine, each action accepted from its seat, to the whole state and result
    it was recorded with. A new action type or option leaves these alone; a change that
    alters them alters stored games (see REPLAYED_VERSIONS)."""
    game = json.loads(path.read_text())
    assert game["rules_version"] in REPLAYED_VERSIONS
    assert state_digest(game["seed"], game["options"], game["actions"]) == (
        game["state"], game["result"])

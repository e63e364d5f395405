"""Every level answers with one of the actions it was offered, and sees no deck order."""

from __future__ import annotations

import random

import pytest

from server.bots.levels import LEVELS, chooser
from server.bots.match import play_game
from server.rules import view as seat_view

BUDGET = 0.002  # tiny: strong still samples each plan once


def _recording(level: str, log: list[tuple[dict, dict]]):
    choose = chooser(level)

    def wrapped(view: dict, rng: random.Random, budget: float) -> dict:
        action = choose(view, rng, budget)
        log.append((view, action))
        return action

    return wrapped


def _hidden_keys(obj: object, path: str = "") -> list[str]:
    """Paths in a view where a seed or a deck order could hide."""
    found = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k == "seed" or (k == "deck" and not isinstance(v, int)):
                found.append(f"{path}.{k}")
            found += _hidden_keys(v, f"{path}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            found += _hidden_keys(v, f"{path}[{i}]")
    return found


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("level", sorted(LEVELS))
def test_level_always_answers_from_the_legal_list(level, players):
    log: list[tuple[dict, dict]] = []
    others = ["greedy", "random", "greedy"]
    lineup = [level] + others[: players - 1]
    choosers = [_recording(lv, log) if i == 0 else chooser(lv) for i, lv in enumerate(lineup)]
    result = play_game(choosers, seed=11 * players, budget=BUDGET)
    assert result["turns"][0] > 0
    assert log
    for view, action in log:
        assert any(action is legal for legal in view["legal"])  # the very dict offered
        assert view["seat"] == 0
        assert _hidden_keys(view) == []
        assert isinstance(view["deck"], int) and view["result"] is None


def test_the_view_passed_is_exactly_the_seat_view():
    from server.rules import new_game

    game = new_game(4, 2)
    passed: list[dict] = []
    choose = chooser("greedy")

    def spy(view: dict, rng: random.Random, budget: float) -> dict:
        passed.append(view)
        return choose(view, rng, budget)

    # Drive one decision by hand, comparing with the engine's own view.
    expected = seat_view(game, game.current)
    spy(seat_view(game, game.current), random.Random(0), BUDGET)
    assert passed == [expected]
    assert "seed" not in passed[0] and passed[0]["deck"] == len(game.deck)


def test_unknown_level_is_refused():
    with pytest.raises(ValueError, match="unknown bot level"):
        chooser("grandmaster")

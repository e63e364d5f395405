"""The public view's cache (rules/view.py): a view made from the cache is the view made
afresh, and what did not change is the very same object as in the view before (what lets
the room's diff skip it)."""

from __future__ import annotations

import random

import pytest

from server.rules import apply, legal_actions, new_game, public_view
from server.rules.state import OVER, Game, Player

PARTS = ("meeples", "tabs", "cups", "completed", "penalties", "rush", "upgrades", "turns")


def fields(p: Player) -> list[object]:
    return [getattr(p, name) for name in PARTS]


def play(game: Game, rng: random.Random, actions: int) -> None:
    """Random legal actions (undo included, when listed), checking the view after each."""
    before = public_view(game)
    states = [Player(*fields(p)).clone() for p in game.players]
    for _ in range(actions):
        if game.phase == OVER:
            return
        apply(game, rng.choice(legal_actions(game)))
        after = public_view(game)
        assert after == public_view(game.clone())  # the clone has no cache: made afresh
        for seat, player in enumerate(game.players):
            was, view, last = states[seat], after["players"][seat], before["players"][seat]
            if player == was:
                assert view is last
            for name in PARTS:
                if getattr(player, name) == getattr(was, name):
                    assert view[name] is last[name], (seat, name)
            if view["score"] == last["score"]:
                assert view["score"] is last["score"]
        before, states = after, [Player(*fields(p)).clone() for p in game.players]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_cached_view_is_the_fresh_view_and_reuses_what_did_not_change(players, seed):
    play(new_game(seed, players), random.Random(seed), 400)

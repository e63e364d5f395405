"""The typed shapes of server/rules/shapes.py and seatview.py are the views the engine really
builds: every key of a shape is in the view and the view has no other, at every level, in
every phase of random games and at the end (so a field added to one and not the other
fails here)."""

from __future__ import annotations

import random
from typing import Any

from server.rules import (
    CardView,
    FinalResult,
    GameView,
    PlayerView,
    Score,
    apply,
    is_over,
    legal_actions,
    new_game,
    view,
)
from server.rules.shapes import MoveView


def keys(shape: type) -> set[str]:
    return set(shape.__annotations__)


def check_view(seen: dict[str, Any]) -> None:
    assert set(seen) == keys(GameView)
    assert set(seen["move"]) == keys(MoveView)
    for card in [*seen["discard"], *seen["set_aside"]]:
        assert set(card) == keys(CardView)
    for player in seen["players"]:
        assert set(player) == keys(PlayerView)
        assert set(player["score"]) == keys(Score)
        for card in [*player["completed"], *player["penalties"],
                     *(c for tab in player["tabs"] for c in tab)]:
            assert set(card) == keys(CardView)
    if seen["result"] is not None:
        assert set(seen["result"]) == keys(FinalResult)
        for score in seen["result"]["scores"]:
            assert set(score) == keys(Score)


def test_views_have_exactly_the_keys_of_their_shapes_in_every_phase() -> None:
    rng = random.Random(11)
    phases = set()
    for players in (2, 3, 4):
        game = new_game(seed=rng.randrange(2**32), players=players)
        while not is_over(game):
            for seat in (None, game.current):
                check_view(dict(view(game, seat)))
            phases.add(game.phase)
            apply(game, rng.choice(legal_actions(game)))
        check_view(dict(view(game, None)))
    assert len(phases) >= 5

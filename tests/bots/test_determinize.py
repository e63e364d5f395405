"""A Game rebuilt from a seat's view matches the real one in everything public (R-HIDDEN)."""

from __future__ import annotations

import random
from dataclasses import fields

import pytest

from server.bots.determinize import determinize, sample_deck, unseen_cards
from server.rules import (
    GameOptions,
    check_invariants,
    legal_actions,
    new_game_from,
    public_view,
    view,
)

from .helpers import positions

SEAT_ONLY = ("seat", "can_undo", "legal")


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("starter_orders", [False, True])
def test_rebuilt_game_has_the_same_public_view_and_legal_actions(players, starter_orders):
    rng = random.Random(99)
    for seed in range(3):
        for game in positions(seed, players, starter_orders):
            seen = view(game, game.current)
            rebuilt = determinize(seen, rng)
            check_invariants(rebuilt)
            public = {k: v for k, v in seen.items() if k not in SEAT_ONLY}
            assert public_view(rebuilt) == public
            if game.phase != "over":
                assert legal_actions(rebuilt) == seen["legal"]


def test_sampled_deck_is_the_unseen_cards_and_varies_with_the_rng():
    game = next(g for g in positions(5, 2) if g.turn == 6)
    seen = view(game, game.current)
    unseen = unseen_cards(seen)
    assert sorted(unseen) == sorted(game.deck)  # nothing else can be in the deck
    decks = {tuple(sample_deck(seen, random.Random(s))) for s in range(5)}
    assert all(sorted(d) == sorted(game.deck) for d in decks)
    assert len(decks) > 1


def test_sampling_is_reproducible_from_the_bot_rng():
    game = next(g for g in positions(8, 3) if g.turn == 4)
    seen = view(game, game.current)
    assert sample_deck(seen, random.Random(1)) == sample_deck(seen, random.Random(1))


def test_every_game_option_survives_the_view_and_the_rebuild():
    """Options travel by name (GameOptions' fields), so a new option reaches the bots' games
    without an edit here or in determinize.py (issue 28: no positional rebuilds)."""
    options = GameOptions(players=3, starter_orders=True, starting_player=2, long_game=True)
    game = new_game_from(11, options)
    seen = view(game, 0)
    # Every field travels, or is left out because it is at its default (stored "absent: false").
    absent = {f for f in fields(GameOptions) if f.name not in seen["options"]}
    assert all(getattr(options, f.name) == f.default for f in absent)
    assert {"players", "starter_orders", "starting_player", "long_game"} <= set(seen["options"])
    assert determinize(seen, random.Random(1)).options == options

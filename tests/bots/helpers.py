"""Shared helpers for the bot tests: seeded random play to reach varied positions, and the
seat's view of one position under several orders of the unseen cards (R-HIDDEN)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from server.bots.determinize import unseen_cards
from server.rules import Game, apply, new_game, view


def positions(seed: int, players: int, starter_orders: bool = False) -> Iterator[Game]:
    """Every state of one seeded random game, the finished one included."""
    game = new_game(seed, players, starter_orders=starter_orders)
    rng = random.Random(seed)
    while True:
        yield game
        if game.phase == "over":
            return
        apply(game, rng.choice(view(game, game.current)["legal"]))


def shuffled_views(game: Game, orders: int = 3) -> Iterator[dict]:
    """The view of the seat to act, once per seeded reordering of the deck (the unseen
    cards): a decision made from the view must be the same for each."""
    for shuffle in range(orders):
        real = game.clone()
        random.Random(shuffle).shuffle(real.deck)
        seen = dict(view(real, real.current))
        assert sorted(real.deck) == unseen_cards(seen)
        yield seen

"""Shared helpers for the bot tests: seeded random play to reach varied positions."""

from __future__ import annotations

import random
from collections.abc import Iterator

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

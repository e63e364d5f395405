"""One bot game without a server: each seat's bot sees only its own view (R-HIDDEN)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from server.rules import Game, GameView, Result, apply, is_over, new_game, view
from server.rules.actions import action_key

from .budget import Budget
from .levels import Chooser


class IllegalBotAction(RuntimeError):
    """A bot answered with something not in its legal list: a bug in the bot."""


def play_game(
    choosers: Sequence[Chooser],
    seed: int,
    budget: float,
    starting_player: int | None = 0,
    before: Callable[[Game], None] | None = None,
) -> Result:
    """Play a whole game, seat s played by choosers[s]; return the engine's final result.

    Each seat has its own RNG derived from the seed and the bots count their work (no
    deadline here), so a game is the same on any machine at any load. `budget`: the
    share of each level's full work per decision. `before`, if given, sees the game before
    each decision (to read it, not to change it).
    """
    game = new_game(seed, len(choosers), starting_player=starting_player)
    rngs = [random.Random(f"{seed}:{seat}") for seat in range(len(choosers))]
    while not is_over(game):
        if before is not None:
            before(game)
        seat = game.current
        seen: GameView = view(game, seat).copy()
        action = choosers[seat](seen, rngs[seat], Budget(budget))
        if not any(action_key(a) == action_key(action) for a in seen["legal"]):
            raise IllegalBotAction(f"seat {seat} chose {action!r}, not a legal action")
        apply(game, action, seat)
    assert game.result is not None
    return game.result

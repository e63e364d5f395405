"""The random bot: any legal action, uniformly (a baseline and a fuzzer)."""

from __future__ import annotations

import random

from server.rules import Action, GameView

from .budget import Budget


def choose(view: GameView, rng: random.Random, budget: Budget) -> Action:
    return rng.choice(view["legal"])

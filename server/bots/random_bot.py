"""The random bot: any legal action, uniformly (a baseline and a fuzzer)."""

from __future__ import annotations

import random

from .budget import Budget


def choose(view: dict, rng: random.Random, budget: Budget) -> dict:
    return rng.choice(view["legal"])

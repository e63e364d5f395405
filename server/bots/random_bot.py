"""The random bot: any legal action, uniformly (a baseline and a fuzzer)."""

from __future__ import annotations

import random


def choose(view: dict, rng: random.Random, budget: float) -> dict:
    return rng.choice(view["legal"])

"""The bot levels by name, each `choose(view, rng, budget) -> action from view["legal"]`."""

from __future__ import annotations

import random
from collections.abc import Callable

from . import greedy, random_bot, strong

Chooser = Callable[[dict, random.Random, float], dict]

LEVELS: dict[str, Chooser] = {
    "random": random_bot.choose,
    "greedy": greedy.choose,
    "strong": strong.choose,
}


def chooser(level: str) -> Chooser:
    try:
        return LEVELS[level]
    except KeyError:
        known = ", ".join(LEVELS)
        raise ValueError(f"unknown bot level {level!r} (known: {known})") from None


def choose_in_process(level: str, view: dict, seed: int, budget: float) -> dict:
    """Entry point for pool workers: top-level, so a spawned process can import it."""
    return chooser(level)(view, random.Random(seed), budget)

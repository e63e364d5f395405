"""The bot levels by name, each `choose(view, rng, budget) -> action from view["legal"]`.

Levels shown to players: random, greedy, strong, expert (the strongest; see expert.py)."""

from __future__ import annotations

import random
from collections.abc import Callable

from . import expert, greedy, random_bot, strong
from .budget import Budget

Chooser = Callable[[dict, random.Random, Budget], dict]

LEVELS: dict[str, Chooser] = {
    "random": random_bot.choose,
    "greedy": greedy.choose,
    "strong": strong.choose,
    "expert": expert.choose,
}


def chooser(level: str) -> Chooser:
    try:
        return LEVELS[level]
    except KeyError:
        known = ", ".join(LEVELS)
        raise ValueError(f"unknown bot level {level!r} (known: {known})") from None


def choose_in_process(
    level: str, view: dict, seed: int, work: float, deadline: float | None = None,
    stop: Callable[[], bool] | None = None,
) -> dict:
    """Entry point for pool workers: top-level, so a spawned process can import it.
    `work`: the share of the level's work; `deadline`: time.monotonic() when the search
    stops, or None; `stop`: asked too, if given (budget.py)."""
    return chooser(level)(view, random.Random(seed), Budget(work, deadline, stop))

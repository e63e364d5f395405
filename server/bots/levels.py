"""The bot levels by name, each `choose(view, rng, budget) -> action from view["legal"]`.

Levels shown to players: random, greedy, strong, expert (the strongest; see expert.py).
Reference levels are for comparisons only (tournaments, bench/), never offered at a
table: `expert-1` is the expert as it was before issue 48, on the same code path."""

from __future__ import annotations

import random
from collections.abc import Callable

from server.rules import Action, GameView

from . import expert, greedy, random_bot, strong
from .budget import Budget

Chooser = Callable[[GameView, random.Random, Budget], Action]

LEVELS: dict[str, Chooser] = {
    "random": random_bot.choose,
    "greedy": greedy.choose,
    "strong": strong.choose,
    "expert": expert.choose,
}


REFERENCE: dict[str, Chooser] = {
    "expert-1": expert.choose_v1,
}


def known(level: str) -> bool:
    """A level a tournament can seat: one shown to players, or a reference level."""
    return level in LEVELS or level in REFERENCE


def chooser(level: str) -> Chooser:
    try:
        return LEVELS[level] if level in LEVELS else REFERENCE[level]
    except KeyError:
        known = ", ".join([*LEVELS, *REFERENCE])
        raise ValueError(f"unknown bot level {level!r} (known: {known})") from None


def choose_in_process(
    level: str, view: GameView, seed: int, work: float, deadline: float | None = None,
    stop: Callable[[], bool] | None = None,
) -> Action:
    """Entry point for pool workers: top-level, so a spawned process can import it.
    `work`: the share of the level's work; `deadline`: time.monotonic() when the search
    stops, or None; `stop`: asked too, if given (budget.py)."""
    return chooser(level)(view, random.Random(seed), Budget(work, deadline, stop))

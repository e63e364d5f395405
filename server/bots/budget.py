"""How much a bot may think: a share of its level's work, and at a table a wall deadline.

Work is counted, not timed (rollout turns for expert, sample rounds for strong), so a
seeded game plays the same on any machine at any load: `coffee-rush tournament`
reproduces. At a live table a bot must still answer in bounded time on a busy server, so
the pool adds a deadline; a search it cuts short plays the best plan found so far and the
cut is logged (the game is then no longer reproducible, which a table never needs).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Budget:
    """`work`: the share (0 < work <= 1 typically) of the level's full work per decision.
    `deadline`: time.monotonic() after which a search stops, or None (never: tournaments).
    `stop`: asked too, if given; True stops the search as the deadline would (the bot pool
    stops a hint so that a bot's move waiting for the worker goes first)."""

    work: float
    deadline: float | None = None
    stop: Callable[[], bool] | None = None

    def expired(self) -> bool:
        if self.deadline is not None and time.monotonic() >= self.deadline:
            return True
        return self.stop is not None and self.stop()


def log_cut(level: str, done: int, planned: int, budget: Budget | None = None) -> None:
    """A deadline ended a search early: say so, with how much of the work was done. One
    that `budget`'s stop ended (a hint making way for a bot's move) is routine: debug."""
    if budget is not None and not (budget.deadline is not None
                                   and time.monotonic() >= budget.deadline):
        log.debug("%s bot: stopped at %d of %d work units for a bot's move", level, done,
                  planned)
        return
    log.warning("%s bot: the deadline cut its search at %d of %d work units", level, done,
                planned)

"""Where one accepted action's time goes, for the load benchmark (setting STAGE_TIMING).

The wire layer starts a Stages when an act frame arrives and makes it the action's own
(`timing`, a context variable: nothing in the rooms' signatures); the room calls
`applied`, `durable` and `queued` as the action passes each stage (rules applied, journal
durable, frames queued), which stamp it when one is being timed and cost a context
variable's read otherwise. `queued` counts down the sockets frames were queued for; each
socket's writer calls `written` once the frame has gone out, and the last one hands the
whole record to `done`. Monotonic clock only, and nothing about the game: just the times.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager, nullcontext
from contextvars import ContextVar
from typing import Protocol

STAGES = ("rules", "journal", "queue", "write", "total")


class Stages:
    __slots__ = ("received", "applied", "durable", "queued", "pending", "counted", "done")

    def __init__(self, done: Callable[[Stages, float], None], received: float) -> None:
        self.received = received  # time.perf_counter() when the frame was read
        self.applied = self.durable = self.queued = 0.0
        self.pending = 0  # marks queued and not yet written (< 0 until all are counted)
        self.counted = False
        self.done = done

    def stamp_applied(self) -> None:
        self.applied = time.perf_counter()

    def stamp_durable(self) -> None:
        self.durable = time.perf_counter()

    def stamp_queued(self) -> None:
        """Every frame of the action is queued (marks follow, see `marked`)."""
        self.queued = time.perf_counter()

    def marked(self, sockets: int) -> None:
        """A mark was queued behind the frames on `sockets` sockets (some may have been
        written already, the moment they were queued)."""
        self.pending += sockets
        self.counted = True
        if self.pending == 0:
            self.done(self, time.perf_counter())

    def written(self) -> None:
        self.pending -= 1
        if self.counted and self.pending == 0:
            self.done(self, time.perf_counter())

    def durations(self, last_written: float) -> dict[str, float]:
        """Seconds spent in each stage: received -> rules applied -> journal durable ->
        frames queued -> last socket written; and the total."""
        return {
            "rules": self.applied - self.received,
            "journal": self.durable - self.applied,
            "queue": self.queued - self.durable,
            "write": last_written - self.queued,
            "total": last_written - self.received,
        }


_CURRENT: ContextVar[Stages | None] = ContextVar("stages", default=None)


class _Timing:
    __slots__ = ("stages", "token")

    def __init__(self, stages: Stages) -> None:
        self.stages = stages

    def __enter__(self) -> None:
        self.token = _CURRENT.set(self.stages)

    def __exit__(self, *exc: object) -> None:
        _CURRENT.reset(self.token)


_UNTIMED = nullcontext()


def timing(stages: Stages | None) -> AbstractContextManager[None]:
    """Within the block, the room's stage calls stamp `stages` (None: nothing is timed, and
    every action shares one no-op block rather than a generator of its own)."""
    return _UNTIMED if stages is None else _Timing(stages)


class Marked(Protocol):
    def mark(self, stages: Stages) -> bool: ...


def applied() -> None:
    if (stages := _CURRENT.get()) is not None:
        stages.stamp_applied()


def durable() -> None:
    if (stages := _CURRENT.get()) is not None:
        stages.stamp_durable()


def queued(sockets: Callable[[], Iterable[Marked]]) -> None:
    """Every frame of the action is queued on the sockets `sockets()` gives: a mark follows
    them on each (asked only when timed: untimed, an action makes no generator here)."""
    if (stages := _CURRENT.get()) is not None:
        stages.stamp_queued()
        stages.marked(sum(conn.mark(stages) for conn in sockets()))

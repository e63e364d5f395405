"""Garbage collection that neither leaks nor stalls the event loop, and glibc's arenas.

`python -m server` freezes the start-up heap and raises the collector's thresholds, so young
collections are rare. What remains is the cyclic garbage that refcounting cannot free (a
socket's protocol and parser, exceptions and their frames): only a collection finds it, and
a collection of everything stalls the event loop in proportion to the heap (a second and more
with 1,000 rooms, every GC_INTERVAL).

So the periodic collection (`Collector.step`) scans only what was allocated since the last
one and then freezes what survived: its pause grows with the interval's allocations, not with
the heap. A frozen object is still freed when its last reference goes; only a cycle among
frozen objects waits, for the next *full* collection, which runs when the frozen heap has
grown `growth` times since the last one (as CPython itself waits for its old generation to
grow by a quarter). With a steady number of rooms that is rare; the garbage it can hold is
bounded by that growth.
"""

from __future__ import annotations

import asyncio
import ctypes
import gc
import logging
import os
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

M_ARENA_MAX = -8  # glibc's mallopt parameter number
MALLOC_ARENAS = 2


def limit_malloc_arenas(arenas: int = MALLOC_ARENAS) -> bool:
    """Let glibc's malloc keep few arenas, unless MALLOC_ARENA_MAX already says how many.

    Every thread that allocates (the database driver's, the bots', the executor's) otherwise
    gets an arena of its own, up to eight per core, and each holds on to the pages it once
    used: the server's memory then creeps up with every burst of connections although
    nothing leaks. True if the limit was set.
    """
    if "MALLOC_ARENA_MAX" in os.environ:
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # not glibc
        return False
    return bool(mallopt(M_ARENA_MAX, arenas))


def tune_collector() -> None:
    """The low-latency settings of `python -m server` (call once the app is built): what is
    alive now is never scanned again, and young passes run less often."""
    gc.freeze()
    gc.set_threshold(100_000, 50, 100)


class Collector:
    """Periodic collections of the young heap, with a full one once the frozen heap grew.

    Survivors are frozen only in a process that froze its start-up heap (`tune_collector`);
    elsewhere (tests running the app in-process) each step is a plain full collection."""

    def __init__(self, growth: float = 2.0, floor: int = 100_000) -> None:
        self.freezing = gc.get_freeze_count() > 0
        self.growth = growth
        # Frozen objects after the last full collection (the start-up heap at first); a small
        # heap may grow past `floor` before a full collection is worth its pause.
        self.floor = floor
        self.baseline = max(gc.get_freeze_count(), floor)

    def step(self) -> tuple[int, bool]:
        """Collect, then freeze the survivors: (objects freed, whether it was a full pass)."""
        if not self.freezing:
            return gc.collect(), True
        full = gc.get_freeze_count() > self.growth * self.baseline
        if full:
            gc.unfreeze()
        freed = gc.collect()
        gc.freeze()
        if full:
            self.baseline = max(gc.get_freeze_count(), self.floor)
        return freed, full

    async def run(self, interval: float) -> None:
        while True:
            await asyncio.sleep(interval)
            start = time.perf_counter()
            freed, full = self.step()
            log.debug("gc: %d objects freed in %.1f ms (%s)", freed,
                      1000 * (time.perf_counter() - start), "full" if full else "young")


class PauseWatch:
    """Tells `observe(generation, seconds)` of every collection, automatic or not, while
    installed (gc.callbacks is process-wide: `remove` it when the app stops)."""

    def __init__(self, observe: Callable[[int, float], None]) -> None:
        self.observe = observe
        self.started = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self.started = time.perf_counter()
        else:
            self.observe(info["generation"], time.perf_counter() - self.started)

    def install(self) -> None:
        gc.callbacks.append(self)

    def remove(self) -> None:
        if self in gc.callbacks:
            gc.callbacks.remove(self)

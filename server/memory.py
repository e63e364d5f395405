"""Garbage collection that neither leaks nor stalls the event loop, and glibc's arenas.

A collector pass stands the event loop still for as long as it takes to scan the objects
of the generations it collects: with 1,000 rooms, a pass over the whole heap took ~1 s, and
even a pass over 30 s of survivors took 0.5-1 s. So `python -m server` keeps every pass
small (`tune_collector`): the start-up heap is frozen (never scanned again), the young
generations are collected often, and every GC_INTERVAL seconds (`Collector.step`) the
youngest is collected and then everything alive is frozen, so the older generations never
hold more than a fraction of a second of survivors.

A frozen object is still freed when its last reference goes; only a cycle among frozen
objects waits, for the next *full* pass. That runs once the heap has doubled (as CPython
itself waits for its old generation to grow by a quarter), or quadrupled if the last full
pass found next to no garbage: with 1,000 rooms a full pass stalls the loop for ~1 s, and
a server filling up with rooms would otherwise take that stall each time its heap doubled.
Rooms and sockets leave no cycles behind (tests/ws/test_churn_garbage.py counts them with
gc.DEBUG_SAVEALL, refused frames included), so churning sockets no longer grows the heap
towards a full pass: 160,000 sockets, half of them refused (bench/soak.py --hostile
--rounds 8), took RSS from 104 to 145 MiB by the 80,000th and no further, with one full
pass in all. What a full pass costs still grows with the heap (Python 3.11 has no
incremental collector); it comes once per doubling of what is really alive.

The heap is measured by the memory blocks in use (sys.getallocatedblocks, ~1 ms), not by
counting the frozen objects (gc.get_freeze_count walks them all: ~150 ms with 1,000 rooms,
a stall every few seconds).
"""

from __future__ import annotations

import asyncio
import ctypes
import gc
import logging
import os
import sys
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


def trim_malloc() -> bool:
    """Give the free pages at the top and inside glibc's heaps back to the system.

    Large request bodies (an import, ~2 MB each) are freed in the middle of the heap once
    glibc's dynamic mmap threshold has risen past their size, where nothing returns them:
    500 parallel imports left ~900 MB resident after they were done. True if some went."""
    try:
        malloc_trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # not glibc
        return False
    return bool(malloc_trim(0))


# Young passes: the first after this many new container objects, the second generation
# every tenth one. Small, so each pass is short (a few ms); the old generation stays small
# too, since the periodic step freezes it (Collector).
YOUNG_THRESHOLDS = (2_000, 10, 10)


def tune_collector() -> None:
    """The low-latency settings of `python -m server` (call once the app is built): what is
    alive now is never scanned again, and the automatic passes stay small."""
    gc.freeze()
    gc.set_threshold(*YOUNG_THRESHOLDS)


class Collector:
    """Each step: a pass over the youngest generation, then what is alive is frozen; a
    full pass once the heap has grown `growth` times (looked at every `check_every` steps),
    `max_growth` times after a full pass that freed less than `worth` of the heap.

    Only a process that froze its start-up heap (`tune_collector`) is stepped; elsewhere
    (tests running the app in-process) the interpreter's own collector settings apply."""

    def __init__(self, growth: float = 2.0, max_growth: float = 4.0, worth: float = 0.01,
                 floor: int = 100_000, check_every: int = 30) -> None:
        self.freezing = gc.get_freeze_count() > 0
        self.min_growth = self.growth = growth
        self.max_growth = max_growth
        self.worth = worth  # objects freed per memory block in use
        # Memory blocks in use after the last full collection (the start-up heap at first);
        # a small heap may grow past `floor` before a full collection is worth its pause.
        self.floor = floor
        self.baseline = max(sys.getallocatedblocks(), floor)
        self.check_every = check_every
        self.steps = 0

    def step(self) -> tuple[int, bool]:
        """Collect, then freeze the survivors: (objects freed, whether it was a full pass)."""
        if not self.freezing:
            return 0, False
        self.steps += 1
        full = self.steps % self.check_every == 0 and \
            sys.getallocatedblocks() > self.growth * self.baseline
        if full:
            gc.unfreeze()
        freed = gc.collect() if full else gc.collect(0)
        gc.freeze()
        if full:
            blocks = sys.getallocatedblocks()
            self.baseline = max(blocks, self.floor)
            self.growth = self.max_growth if freed < self.worth * blocks else self.min_growth
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

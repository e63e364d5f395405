"""Garbage that the low-latency collector settings would otherwise keep for good.

`python -m server` freezes the start-up heap and raises the collector's thresholds, so young
collections are rare and full ones almost never run (a full pass under load stalls the event
loop). But every closed socket leaves reference cycles behind (its tasks, futures and the
exceptions that ended them), and without full passes they pile up: ~8 KB per connection,
about a gigabyte after 100,000 connections. So a full collection runs every GC_INTERVAL
seconds, off the hot path: its pause is short because the frozen start-up heap is not
scanned, and it happens once per interval instead of in the middle of a burst of actions.
"""

from __future__ import annotations

import asyncio
import ctypes
import gc
import logging
import os
import time

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


def collect() -> tuple[int, float]:
    """One full collection: (objects freed, seconds taken)."""
    start = time.perf_counter()
    freed = gc.collect()
    return freed, time.perf_counter() - start


async def collect_periodically(interval: float) -> None:
    while True:
        await asyncio.sleep(interval)
        freed, took = collect()
        if freed:
            log.debug("gc: %d objects freed in %.1f ms", freed, took * 1000)

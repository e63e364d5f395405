"""Bots think in worker processes, so a room's event loop never waits on a search."""

from __future__ import annotations

import asyncio
import ctypes
import itertools
import multiprocessing
import os
import signal
import sys
import threading
import time
import zlib
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from .levels import choose_in_process

PR_SET_PDEATHSIG = 1  # linux/prctl.h
ORPHAN_CHECK = 1.0  # seconds between looks at the parent where prctl is not available


def die_with_parent(parent: int) -> None:
    """Worker initializer: end this worker when the server that spawned it dies.

    A worker blocks reading its call queue, whose write end it holds itself, so it never
    sees the server go: after a SIGKILL it (and, through it, the multiprocessing resource
    tracker) would run on for ever. On Linux the kernel sends SIGKILL when the parent
    dies; elsewhere a daemon thread polls the parent's pid."""
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0:
            if os.getppid() != parent:  # it died before the request took effect
                os._exit(1)
            return
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True,
                     name="orphan-check").start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(ORPHAN_CHECK)
    os._exit(1)


def _worker() -> ProcessPoolExecutor:
    # Spawned, so safe next to threads and an event loop; the process starts on first use.
    # PR_SET_PDEATHSIG fires when the *thread* that spawned a worker ends: workers are
    # spawned by submit(), i.e. from the event loop's thread, which lives as long as the
    # server.
    return ProcessPoolExecutor(
        max_workers=1, mp_context=multiprocessing.get_context("spawn"),
        initializer=die_with_parent, initargs=(os.getpid(),),
    )


class BotPool:
    """A few worker processes, one executor each, so that a decision can be routed by
    affinity: the same key (a room and seat) always thinks in the same process, where the
    strong bot keeps its per-turn plan."""

    def __init__(self, workers: int, deadline: float | None = None) -> None:
        if workers < 1:
            raise ValueError("a bot pool needs at least one worker")
        self.deadline = deadline  # wall seconds per decision, from when a worker takes it
        self._workers = [_worker() for _ in range(workers)]
        self._next = itertools.count()
        self._closed = False

    def worker_of(self, key: str | None) -> int:
        """The worker index for `key` (stable for the pool's life); None: round robin."""
        if key is None:
            return next(self._next) % len(self._workers)
        return zlib.crc32(key.encode()) % len(self._workers)

    async def choose(
        self, level: str, view: dict, seed: int, budget: float, key: str | None = None
    ) -> dict:
        """One action from view["legal"], chosen by the `level` bot in a worker.

        `seed` seeds the bot's RNG for this decision; `budget` is the share of the level's
        full work (budget.py), cut short by the pool's deadline; `key` routes the decision
        (e.g. "ROOMCODE:2"). A worker that died is replaced, and the error is raised for
        the caller to retry.
        """
        index = self.worker_of(key)
        executor = self._workers[index]
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(
                executor, choose_in_process, level, view, seed, budget, self.deadline
            )
        except BrokenProcessPool:
            if not self._closed and self._workers[index] is executor:
                executor.shutdown(wait=False, cancel_futures=True)
                self._workers[index] = _worker()
            raise

    async def call(self, fn: Callable[..., Any], *args: Any, key: str | None = None) -> Any:
        """`fn(*args)` in a worker (fn top-level, so a spawned process can import it; e.g.
        a hint, server.bots.hint.suggest), routed by `key` as `choose` is."""
        index = self.worker_of(key)
        executor = self._workers[index]
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(executor, fn, *args)
        except BrokenProcessPool:
            if not self._closed and self._workers[index] is executor:
                executor.shutdown(wait=False, cancel_futures=True)
                self._workers[index] = _worker()
            raise

    def close(self) -> None:
        """Stop the workers; decisions still queued are dropped."""
        self._closed = True
        for executor in self._workers:
            executor.shutdown(wait=True, cancel_futures=True)

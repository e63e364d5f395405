"""Bots think in worker processes, so a room's event loop never waits on a search."""

from __future__ import annotations

import asyncio
import ctypes
import functools
import heapq
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
from dataclasses import dataclass, field
from typing import Any

from server.rules import Action, GameView

from .levels import choose_in_process

PR_SET_PDEATHSIG = 1  # linux/prctl.h
ORPHAN_CHECK = 1.0  # seconds between looks at the parent where prctl is not available
SPAWN = multiprocessing.get_context("spawn")


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


class Late(Exception):
    """A hint whose deadline passed while it waited for its worker: not thought at all."""


# In a worker process: set while a bot's move waits for this worker (see _Lane).
_move_waiting: Any = None


def _start_worker(parent: int, move_waiting: Any) -> None:
    global _move_waiting
    die_with_parent(parent)
    _move_waiting = move_waiting


def _yield_to_moves() -> bool:
    return bool(_move_waiting is not None and _move_waiting.value)


def _run(fn: Callable[..., Any], args: tuple[Any, ...], deadline: float | None,
         yields: bool) -> Any:
    """In a worker: `fn(*args, deadline, stop)`. A hint or a review stops when a job before
    it comes to wait for this worker (`stop`): a hint answers with what it found so far, a
    review's turn gives up (review.Yielded) and is queued again."""
    return fn(*args, deadline, _yield_to_moves if yields else None)


def _worker(move_waiting: Any) -> ProcessPoolExecutor:
    # Spawned, so safe next to threads and an event loop; the process starts on first use.
    # PR_SET_PDEATHSIG fires when the *thread* that spawned a worker ends: workers are
    # spawned by submit(), i.e. from the event loop's thread, which lives as long as the
    # server.
    return ProcessPoolExecutor(
        max_workers=1, mp_context=SPAWN,
        initializer=_start_worker, initargs=(os.getpid(), move_waiting),
    )


# A job's priority: every bot move waiting goes before any hint, and every hint before
# any turn of a game's review (server/bots/review.py).
MOVE, HINT, REVIEW = 0, 1, 2


@dataclass(order=True, slots=True)
class _Job:
    priority: int
    seq: int
    fn: Callable[..., Any] = field(compare=False)
    args: tuple[Any, ...] = field(compare=False)
    deadline: float | None = field(compare=False)  # time.monotonic(), from the request
    done: asyncio.Future[Any] = field(compare=False)


class _Lane:
    """One worker process and the jobs waiting for it, best first (moves, then the oldest).
    The process is handed one job at a time, so a move that arrives never waits behind
    hints in the executor's own first-come queue; a hint it finds thinking is told to stop
    (`move_waiting`, shared memory the worker reads as its search goes)."""

    def __init__(self) -> None:
        self.move_waiting = SPAWN.RawValue(ctypes.c_bool, False)
        self.executor = _worker(self.move_waiting)
        self.waiting: list[_Job] = []
        self.running: _Job | None = None


class BotPool:
    """A few worker processes, one executor each, so that a decision can be routed by
    affinity: the same key (a room and seat) always thinks in the same process, where the
    strong bot keeps its per-turn plan. In each process a bot's move goes before hints
    (priority MOVE before HINT), and a hint never begins past its deadline (Late)."""

    def __init__(self, workers: int, deadline: float | None = None) -> None:
        if workers < 1:
            raise ValueError("a bot pool needs at least one worker")
        # Wall seconds per decision, counted from the request (time spent waiting for the
        # worker included): a search is cut there, a hint not begun by then is refused.
        self.deadline = deadline
        self._lanes = [_Lane() for _ in range(workers)]
        self._next = itertools.count()
        self._seq = itertools.count()
        self._closed = False

    def worker_of(self, key: str | None) -> int:
        """The worker index for `key` (stable for the pool's life); None: round robin."""
        if key is None:
            return next(self._next) % len(self._lanes)
        return zlib.crc32(key.encode()) % len(self._lanes)

    async def choose(
        self, level: str, view: GameView, seed: int, budget: float, key: str | None = None
    ) -> Action:
        """One action from view["legal"], chosen by the `level` bot in a worker.

        `seed` seeds the bot's RNG for this decision; `budget` is the share of the level's
        full work (budget.py), cut short by the pool's deadline; `key` routes the decision
        (e.g. "ROOMCODE:2"). A worker that died is replaced, and the error is raised for
        the caller to retry.
        """
        result: Action = await self.call(choose_in_process, level, view, seed, budget, key=key)
        return result

    async def call(self, fn: Callable[..., Any], *args: Any, key: str | None = None,
                   priority: int = MOVE) -> Any:
        """`fn(*args, deadline, stop)` in a worker (fn top-level, so a spawned process can
        import it: levels.choose_in_process, hint.suggest), routed by `key` as `choose` is.
        `deadline` is when fn must answer (time.monotonic(), None: never), `stop` None for
        a move; a HINT is given a `stop` that turns True when a move waits, and raises Late
        if its deadline passes before the worker is free for it; a REVIEW's `stop` turns
        True when a move or a hint waits (its deadline is for it to ignore)."""
        if self._closed:
            raise RuntimeError("the bot pool is closed")
        loop = asyncio.get_running_loop()
        deadline = None if self.deadline is None else time.monotonic() + self.deadline
        job = _Job(priority, next(self._seq), fn, args, deadline, loop.create_future())
        lane = self._lanes[self.worker_of(key)]
        heapq.heappush(lane.waiting, job)
        if lane.running is not None and lane.running.priority > priority:
            lane.move_waiting.value = True
        self._pump(lane)
        return await job.done

    def queue(self) -> list[dict[str, int | str | None]]:
        """Each worker's queue now (the operators' page): moves and hints waiting, and
        what it is thinking (move, hint, or None)."""
        return [{"moves_waiting": sum(1 for j in lane.waiting if j.priority == MOVE),
                 "hints_waiting": sum(1 for j in lane.waiting if j.priority == HINT),
                 "thinking": None if lane.running is None
                 else "move" if lane.running.priority == MOVE else "hint"}
                for lane in self._lanes]

    def _pump(self, lane: _Lane) -> None:
        """Hand the lane's best waiting job to its worker, if the worker is free."""
        loop = asyncio.get_running_loop()
        while lane.running is None and lane.waiting:
            job = heapq.heappop(lane.waiting)
            if job.done.done():  # its caller gave up waiting
                continue
            hint = job.priority == HINT
            if hint and job.deadline is not None and time.monotonic() >= job.deadline:
                job.done.set_exception(Late("the hint's deadline passed while it waited"))
                continue
            lane.move_waiting.value = False
            try:
                thinking = loop.run_in_executor(lane.executor, _run, job.fn, job.args,
                                                job.deadline, job.priority != MOVE)
            except (BrokenProcessPool, RuntimeError) as e:  # a dead worker, a closed pool
                self._replace(lane, lane.executor)
                job.done.set_exception(e)
                continue
            lane.running = job
            thinking.add_done_callback(
                functools.partial(self._finished, lane, job, lane.executor))

    def _finished(self, lane: _Lane, job: _Job, executor: ProcessPoolExecutor,
                  thinking: asyncio.Future[Any]) -> None:
        lane.running = None
        error = None if thinking.cancelled() else thinking.exception()
        if isinstance(error, BrokenProcessPool):
            self._replace(lane, executor)
        if not job.done.done():
            if thinking.cancelled():  # only close() cancels what a worker was given
                job.done.set_exception(RuntimeError("the bot pool is closed"))
            elif error is not None:
                job.done.set_exception(error)
            else:
                job.done.set_result(thinking.result())
        if not self._closed:
            self._pump(lane)
        else:
            for waiting in lane.waiting:
                if not waiting.done.done():
                    waiting.done.set_exception(RuntimeError("the bot pool is closed"))
            lane.waiting.clear()

    def _replace(self, lane: _Lane, executor: ProcessPoolExecutor) -> None:
        """A worker that died: a new process for the lane (once, whoever notices first)."""
        if not self._closed and lane.executor is executor:
            executor.shutdown(wait=False, cancel_futures=True)
            lane.executor = _worker(lane.move_waiting)

    def close(self) -> None:
        """Stop the workers; decisions still queued are dropped (their callers get
        RuntimeError)."""
        self._closed = True
        for lane in self._lanes:
            lane.executor.shutdown(wait=True, cancel_futures=True)

"""Bots think in worker processes, so a room's event loop never waits on a search."""

from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import ProcessPoolExecutor

from .levels import choose_in_process


class BotPool:
    """A few worker processes (spawned, so safe next to threads and an event loop)."""

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise ValueError("a bot pool needs at least one worker")
        self._executor = ProcessPoolExecutor(
            max_workers=workers, mp_context=multiprocessing.get_context("spawn")
        )

    async def choose(self, level: str, view: dict, seed: int, budget: float) -> dict:
        """One action from view["legal"], chosen by the `level` bot in a worker.

        `seed` seeds the bot's RNG for this decision; `budget` is its time per turn.
        """
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._executor, choose_in_process, level, view, seed, budget
        )

    def close(self) -> None:
        """Stop the workers; decisions still queued are dropped."""
        self._executor.shutdown(wait=True, cancel_futures=True)

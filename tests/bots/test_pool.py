"""The pool thinks in worker processes and never blocks the event loop."""

from __future__ import annotations

import asyncio

import pytest

from server.bots.pool import BotPool
from server.rules import new_game, view


@pytest.mark.asyncio
async def test_pool_chooses_legal_actions_while_the_loop_keeps_running():
    game = new_game(21, 2)
    seen = view(game, game.current)
    pool = BotPool(workers=1)
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0)

    task = asyncio.create_task(ticker())
    try:
        actions = await asyncio.gather(
            pool.choose("greedy", seen, seed=1, budget=0.01),
            pool.choose("random", seen, seed=2, budget=0.01),
            pool.choose("strong", seen, seed=3, budget=0.01),
        )
    finally:
        task.cancel()
        pool.close()
    for action in actions:
        assert action in seen["legal"]
    # The loop ran other work while the worker (a spawned process) was thinking.
    assert ticks > 0


@pytest.mark.asyncio
async def test_pool_reports_a_bad_level_and_refuses_work_after_close():
    game = new_game(22, 3)
    seen = view(game, game.current)
    pool = BotPool(workers=1)
    try:
        with pytest.raises(ValueError, match="unknown bot level"):
            await pool.choose("nobody", seen, seed=1, budget=0.01)
    finally:
        pool.close()
    with pytest.raises(RuntimeError):
        await pool.choose("greedy", seen, seed=1, budget=0.01)


def test_pool_needs_a_worker():
    with pytest.raises(ValueError):
        BotPool(workers=0)

"""The pool thinks in worker processes and never blocks the event loop."""

from __future__ import annotations

import asyncio

import pytest

from server.bots.pool import BotPool
from server.rules import new_game, view

from .test_strong_eval import _midgame


@pytest.mark.asyncio
async def test_pool_chooses_legal_actions_while_the_loop_keeps_running():
    """A decision is handed to a worker and awaited: one turn of the loop later it is still
    pending, and the loop is free. (Made inline, it would be done by then: a coroutine that
    never waits runs to its end in its first step.)"""
    game = new_game(21, 2)
    seen = view(game, game.current)
    pool = BotPool(workers=1)
    try:
        tasks = [asyncio.ensure_future(pool.choose(level, seen, seed=seed, budget=0.01))
                 for seed, level in enumerate(("greedy", "random", "strong"), start=1)]
        await asyncio.sleep(0)  # each task has taken its first step: submitted, waiting
        assert not any(task.done() for task in tasks)
        actions = await asyncio.gather(*tasks)
    finally:
        pool.close()
    for action in actions:
        assert action in seen["legal"]


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


@pytest.mark.asyncio
async def test_the_pools_deadline_cuts_a_workers_search():
    """With no time at all the expert plays its first round's choice (greedy's plan here);
    without a deadline the same decision, seed and budget searches on and chooses
    another. (A position where the two differ: retuning the expert may need another.)"""
    game = _midgame(2, 3)
    seen = view(game, game.current)
    choices = []
    for deadline in (0.0, None):
        pool = BotPool(workers=1, deadline=deadline)
        try:
            choices.append(await pool.choose("expert", seen, seed=5, budget=1.0))
        finally:
            pool.close()
    cut, full = choices
    assert cut == {"type": "choose_meeple", "meeple": 1} != full

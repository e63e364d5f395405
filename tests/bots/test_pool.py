"""The pool thinks in worker processes and never blocks the event loop; a bot's move goes
before hints, and a deadline counts from the request."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from server.bots.pool import HINT, MOVE, REVIEW, BotPool, Late
from server.rules import new_game, view

from . import workers
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


async def _begun(gate: Path) -> None:
    """Until the job holding the worker has begun (it creates `gate`)."""
    while not gate.exists():
        await asyncio.sleep(0.01)


@pytest.mark.asyncio
async def test_a_move_goes_before_the_hints_waiting_for_its_worker(tmp_path: Path):
    """Issue 41.1: hints and moves share the workers, and a move must never wait behind
    hints. A hint holds the worker, two more wait; a move asked after them is thought
    before them, and the hint holding the worker is stopped for it (what it found so far
    is its answer)."""
    pool = BotPool(workers=1, deadline=60)
    done: list[str] = []

    async def ask(name: str, fn, *args, priority: int) -> object:
        result = await pool.call(fn, *args, key="ROOM:0", priority=priority)
        done.append(name)
        return result

    try:
        gate = tmp_path / "holding"
        holder = asyncio.ensure_future(ask("holding hint", workers.hold, str(gate), 60.0,
                                           priority=HINT))
        await _begun(gate)
        hints = [asyncio.ensure_future(ask(f"hint {i}", workers.label, "h", priority=HINT))
                 for i in (1, 2)]
        await asyncio.sleep(0)  # both asked (and waiting) before the move
        move = asyncio.ensure_future(ask("move", workers.label, "m", priority=MOVE))
        stopped, *_ = await asyncio.gather(holder, *hints, move)
    finally:
        pool.close()
    assert done == ["holding hint", "move", "hint 1", "hint 2"]
    assert stopped is True  # stopped for the move, not after its 60 s


@pytest.mark.asyncio
async def test_a_decisions_deadline_counts_from_its_request_not_from_its_start(
        tmp_path: Path):
    """A move asked while another holds the worker gets the deadline of its request: the
    time it waited is spent. A hint that waits past its deadline is never begun (Late)."""
    deadline = 30.0
    pool = BotPool(workers=1, deadline=deadline)
    gate = tmp_path / "open"
    try:
        holding = asyncio.ensure_future(pool.call(workers.wait_for, str(gate)))
        await asyncio.sleep(0)
        before = time.monotonic()
        asked = asyncio.ensure_future(pool.call(workers.deadline_of))
        await asyncio.sleep(0)  # asked now
        after = time.monotonic()
        await asyncio.sleep(0.5)  # it waits at least this long for the worker
        gate.touch()
        await holding
        given = await asked
    finally:
        pool.close()
    assert given is not None and before + deadline <= given <= after + deadline

    pool = BotPool(workers=1, deadline=0.2)
    gate = tmp_path / "open again"
    try:
        holding = asyncio.ensure_future(pool.call(workers.wait_for, str(gate)))
        late = asyncio.ensure_future(pool.call(workers.label, "h", priority=HINT))
        await asyncio.sleep(0.3)  # at least the hint's whole deadline, waiting
        gate.touch()
        await holding
        with pytest.raises(Late):
            await late
    finally:
        pool.close()


@pytest.mark.asyncio
async def test_a_review_waits_behind_every_move_and_hint_and_yields_to_them(tmp_path: Path):
    """Issue 45: a game's review is thought turn by turn at the lowest priority. A review
    turn holds the worker, another review turn waits; a hint and a move asked after it are
    thought first (the move before the hint), and the turn holding the worker is told to
    stop for them (it gives the turn up, to be appraised again: review.Yielded)."""
    pool = BotPool(workers=1, deadline=60)
    done: list[str] = []

    async def ask(name: str, fn, *args, priority: int) -> object:
        result = await pool.call(fn, *args, key=None, priority=priority)
        done.append(name)
        return result

    try:
        gate = tmp_path / "holding"
        holder = asyncio.ensure_future(ask("holding review", workers.hold, str(gate), 60.0,
                                           priority=REVIEW))
        await _begun(gate)
        waiting = asyncio.ensure_future(ask("review", workers.label, "r", priority=REVIEW))
        await asyncio.sleep(0)
        hint = asyncio.ensure_future(ask("hint", workers.label, "h", priority=HINT))
        move = asyncio.ensure_future(ask("move", workers.label, "m", priority=MOVE))
        stopped, *_ = await asyncio.gather(holder, waiting, hint, move)
    finally:
        pool.close()
    assert done == ["holding review", "move", "hint", "review"]
    assert stopped is True  # stopped for the hint, not after its 60 s

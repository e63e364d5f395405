"""Fast greedy play on a Game, for the strong and expert bots' look-ahead, and the
measure of their work.

A rollout turn takes greedy's decisions but plans each phase once (the whole move, the
whole pour) instead of re-planning at every step, and by default considers no Rush-paid
steps: it only has to be a fair guess at how the game goes on, many times over. (Letting
the rollouts spend Rush Tokens as greedy does, 2 extra steps, was measured for the expert:
no better, 71.5% against 72.0% on 100 paired 2-player games.)

`work_units` counts what a search spends its CPU on, so both bots bound a decision by
counting (budget.py), never by timing.
"""

from __future__ import annotations

from collections.abc import Callable

from server.rules import Action, Game, apply
from server.rules.data import CELL_NAMES, INGREDIENTS
from server.rules.state import MOVE, OVER, POUR, PROCESS, UPGRADE

from . import greedy
from . import multiset as ms
from .orders import Allocator, player_orders

ROLLOUT_RUSH = 0
TURN_UNITS = 11.0  # a simulated turn's own cost (actions, pour), in allocations
ENDINGS_PER_UNIT = 100.0  # move endings scored per allocation's worth of CPU
STEPS_PER_UNIT = 30.0  # rescue path steps expanded per allocation's worth (measured)


def work_units(turns: int, memo: greedy.AllocationMemo) -> float:
    """Work counted in allocations' worth of CPU: simulated turns, the allocations
    computed, the move endings scored and the rescue path steps expanded (what a search
    spends its time on), so a search bounds its CPU by counting (budget.py)."""
    return (TURN_UNITS * turns + memo.allocations + memo.endings / ENDINGS_PER_UNIT
            + memo.steps / STEPS_PER_UNIT)


def play_move(game: Game, meeple: int, path: tuple[int, ...]) -> None:
    if game.moving is None:
        apply(game, {"type": "choose_meeple", "meeple": meeple})
    for cell in path:
        apply(game, {"type": "step", "cell": CELL_NAMES[cell]})
    apply(game, {"type": "stop"})


def play_pour(game: Game) -> None:
    player = game.players[game.current]
    alloc = Allocator(player.cups, player_orders(player)).allocate(ms.pack(game.hand))
    for k, plan in enumerate(alloc.cups):
        if plan.empty_first and player.cups[k]:
            apply(game, {"type": "empty", "cup": k})
    for k, plan in enumerate(alloc.cups):
        for ing, count in enumerate(ms.unpack(plan.add)):
            for _ in range(count):
                apply(game, {"type": "pour", "ingredient": INGREDIENTS[ing], "cup": k})
    for ing, count in enumerate(ms.unpack(alloc.returned)):
        for _ in range(count):
            apply(game, {"type": "return", "ingredient": INGREDIENTS[ing]})
    apply(game, {"type": "done_pouring"})


def finish_turn(
    game: Game,
    memo: greedy.AllocationMemo | None = None,
    max_rush: int = ROLLOUT_RUSH,
    upgrade: Callable[[Game], Action] = greedy.upgrade_action,
) -> float:
    """Play the rest of the current turn greedily, up to and including end_turn; return
    what greedy expected its move to serve (its `done` value, on orders.py's scale).
    `memo`: see greedy.best_endings; `max_rush`: the Rush-paid steps considered (greedy
    itself considers greedy.MAX_RUSH); `upgrade`: the rule for the upgrade phase."""
    seat, turn = game.current, game.turn
    done = 0.0
    while game.phase != OVER and game.current == seat and game.turn == turn:
        phase = game.phase
        if phase == MOVE:
            best = greedy.best_endings(game, 1, max_rush, memo)[0]
            done += best.done
            play_move(game, best.meeple, best.ending.path)
        elif phase == POUR:
            play_pour(game)
        elif phase == UPGRADE:
            apply(game, upgrade(game))
        elif phase == PROCESS:
            apply(game, greedy.act(game))
        else:
            raise ValueError(f"rollouts start after setup, not in {phase!r}")
    return done

"""Every distinct way to finish a move from the current state (R-MOVE).

A move is judged by where it ends and what it gains, so paths are enumerated breadth
first and merged when they reach the same (cell, gains): the board is 4x4, which keeps
the frontier small even with Diagonal Movement.
"""

from __future__ import annotations

from dataclasses import dataclass

from server.rules.actions.step import gain_multiplier
from server.rules.data import (
    ALL_NEIGHBOURS,
    BASE_STEPS,
    CELL_ING,
    DIAGONAL,
    ORTHOGONAL_NEIGHBOURS,
)
from server.rules.state import Game

from . import multiset as ms


@dataclass(frozen=True, slots=True)
class Ending:
    cell: int
    gains: int  # packed tokens this path adds to the hand
    path: tuple[int, ...]  # cells still to step onto (empty: stop where we are)
    rush: int  # Rush Tokens the path spends


def occupied(game: Game, meeple: int) -> frozenset[int]:
    """Cells holding a meeple other than `meeple` of the player to act."""
    cells = set()
    for seat, p in enumerate(game.players):
        for i, cell in enumerate(p.meeples):
            if seat != game.current or i != meeple:
                cells.add(cell)
    return frozenset(cells)


def _multipliers(game: Game, others: frozenset[int]) -> tuple[int, ...]:
    ups = game.players[game.current].upgrades
    return tuple(gain_multiplier(ups, cell, others) for cell in range(16))


def endings(game: Game, meeple: int, max_rush: int) -> list[Ending]:
    """Legal ways to end the move of `meeple` (chosen or not yet), spending at most
    `max_rush` Rush Tokens; for each (cell, gains) the one spending fewest tokens."""
    player = game.players[game.current]
    chosen = game.moving == meeple
    taken = game.steps if chosen else 0
    start = player.meeples[meeple]
    others = occupied(game, meeple)
    mult = _multipliers(game, others)
    neighbours = ALL_NEIGHBOURS if player.upgrades[DIAGONAL] else ORTHOGONAL_NEIGHBOURS
    free = max(0, BASE_STEPS - taken)
    rush_cap = min(max_rush, player.rush)
    supply = game.supply
    out: dict[tuple[int, int], Ending] = {}
    if taken >= 1 and start not in others:
        out[(start, ms.EMPTY)] = Ending(start, ms.EMPTY, (), 0)
    frontier: dict[tuple[int, int], tuple[int, ...]] = {(start, ms.EMPTY): ()}
    for depth in range(1, free + rush_cap + 1):
        rush = max(0, depth - free)
        nxt: dict[tuple[int, int], tuple[int, ...]] = {}
        for (cell, gains), path in frontier.items():
            for to in neighbours[cell]:
                ing = CELL_ING[to]
                got = min(mult[to], supply[ing] - ms.count(gains, ing))
                key = (to, gains + ms.single(ing, got) if got > 0 else gains)
                if key not in nxt:
                    nxt[key] = path + (to,)
        frontier = nxt
        for (cell, gains), path in nxt.items():
            if cell not in others and (cell, gains) not in out:
                out[(cell, gains)] = Ending(cell, gains, path, rush)
    return list(out.values())

"""Plans for the penalty race: moves that keep the orders on tab 4 from falling (R-END-PEN).

In a 2-player game the token closes when a player reaches PENALTY_LIMIT penalties, and
whoever takes that fifth penalty mostly loses (before this module the expert lost 29 of
the 33 games it closed, in 100 against greedy). Greedy's move is blind to it: it spends at
most two Rush Tokens, and only to serve more orders than a free move would, and it never
empties a cup that is on course for a later order. So when the orders on tab 4 would take
a player to the limit at the end of this turn (`at_risk`), `rescues` lists the moves that
serve the most of them: any number of Rush Tokens up to RESCUE_RUSH, any cup emptied and
refilled for a tab-4 order (R-POUR, R-FAQ-4). In 60 greedy-vs-greedy games, 47 of the 48
turns where greedy took the fifth penalty had such a rescue.

A rescue is only a candidate: the expert's search still plays it out on sampled decks
against greedy's own plan, so a rescue that costs more than it saves (or a fifth penalty
that ends a game the player is winning) is judged by how the game goes on, not by rule.
"""

from __future__ import annotations

from typing import NamedTuple

from server.rules import Game
from server.rules.actions.step import gain_multiplier
from server.rules.data import (
    ALL_NEIGHBOURS,
    BASE_STEPS,
    CELL_ING,
    DIAGONAL,
    ORTHOGONAL_NEIGHBOURS,
    PENALTY_LIMIT,
)

from . import multiset as ms
from .greedy import AllocationMemo
from .orders import Allocation, Allocator, Order, player_orders
from .paths import Ending, occupied

RESCUE_RUSH = 5  # the most Rush Tokens a rescue may spend
RESCUES = 2  # rescue plans offered per search
ALLOCATION_STEPS = 5  # work: an allocation for the tab-4 orders, in path steps' worth


class Rescue(NamedTuple):
    """A way to finish the move, and the pour that serves tab-4 orders with it."""

    saved: int  # tab-4 orders served
    rush: int
    value: float  # greedy's value of the same ending (all orders), the tie-break
    meeple: int
    ending: Ending
    pour: Allocation  # cups to empty and tokens to pour for the tab-4 orders


def at_risk(game: Game, slack: int = 0) -> bool:
    """The player to act reaches the penalty limit at the end of this turn unless it
    serves some of its tab-4 orders (`slack`: or comes within that many penalties of it)."""
    player = game.players[game.current]
    return (bool(player.tabs[3])
            and len(player.penalties) + len(player.tabs[3]) >= PENALTY_LIMIT - slack)


def rescues(
    game: Game, limit: int = RESCUES, max_rush: int = RESCUE_RUSH,
    memo: AllocationMemo | None = None,
) -> list[Rescue]:
    """The `limit` best distinct moves for the tab-4 orders: most served, then fewest Rush
    Tokens (at most `max_rush`), then greedy's value of the move; none when no move serves
    any of them. `memo` (optional) counts the work done, in path steps expanded."""
    player = game.players[game.current]
    orders = player_orders(player)
    urgent_orders = [o for o in orders if o.tab == 3]
    # Only tab-4 orders: every non-empty cup that fits none of them may be emptied.
    urgent = Allocator(player.cups, urgent_orders)
    most = min(len(urgent_orders), len(player.cups))
    hand = ms.pack(game.hand)
    meeples = [game.moving] if game.moving is not None else range(len(player.meeples))
    found: list[tuple[int, int, int, Ending, Allocation]] = []
    work = [0, 0]  # allocations, steps
    needs = _needs(urgent_orders, urgent.cups, hand)
    for m in meeples:
        found.extend(_rescues_of(game, m, urgent, hand, needs, most, max_rush, work))
    if memo is not None:  # a tab-4 allocation (one or two orders) costs about 5 steps
        memo.steps += work[1] + ALLOCATION_STEPS * (work[0] + len(found))
    if not found:
        return []
    top = max(found, key=lambda f: (f[0], -f[1]))
    found = [f for f in found if f[0] == top[0] and f[1] == top[1]]
    whole = Allocator(player.cups, orders)
    ranked = [
        Rescue(saved, rush, whole.allocate(whole.usable(hand + e.gains)).value, m, e, pour)
        for saved, rush, m, e, pour in found
    ]
    ranked.sort(key=lambda r: (-r.value, r.meeple, len(r.ending.path), r.ending.path))
    return ranked[:limit]


def _needs(orders: list[Order], cups: list[int], hand: int) -> int:
    """The tokens the tab-4 orders still lack, each in its fullest fitting cup, beyond
    those in hand: gains past these do not change which of them a move can serve (up to
    cups shared by two orders, which is only a search shortcut, never an illegal plan)."""
    need = [0] * len(ms.unpack(hand))
    for o in orders:
        lack = min((o.recipe - c for c in cups if ms.fits(c, o.recipe)), key=ms.size,
                   default=o.recipe)
        for ing, count in enumerate(ms.unpack(lack)):
            need[ing] += count
    return ms.pack(max(0, n - h) for n, h in zip(need, ms.unpack(hand), strict=True))


def _rescues_of(
    game: Game, meeple: int, urgent: Allocator, hand: int, needs: int, most: int,
    max_rush: int, work: list[int],
) -> list[tuple[int, int, int, Ending, Allocation]]:
    """Breadth first over `meeple`'s paths, as paths.endings, but merging paths whose
    gains agree on what the tab-4 orders lack (`needs`: far fewer states with many Rush
    Tokens to spend), and stopping at the first depth that serves as many as it can."""
    player = game.players[game.current]
    taken = game.steps if game.moving == meeple else 0
    start = player.meeples[meeple]
    others = occupied(game, meeple)
    mult = tuple(gain_multiplier(player.upgrades, cell, others) for cell in range(16))
    neighbours = ALL_NEIGHBOURS if player.upgrades[DIAGONAL] else ORTHOGONAL_NEIGHBOURS
    free = max(0, BASE_STEPS - taken)
    deepest = free + min(max_rush, player.rush)
    supply = game.supply
    cache: dict[int, Allocation] = {}
    best: list[tuple[int, int, int, Ending, Allocation]] = []
    best_saved = 0
    # (cell, usable gains) -> (path, real gains): the first path there, the shortest.
    frontier: dict[tuple[int, int], tuple[tuple[int, ...], int]] = {
        (start, ms.EMPTY): ((), ms.EMPTY)}
    for depth in range(1, deepest + 1):
        rush = max(0, depth - free)
        nxt: dict[tuple[int, int], tuple[tuple[int, ...], int]] = {}
        for (cell, _), (path, gains) in frontier.items():
            work[1] += len(neighbours[cell])
            for to in neighbours[cell]:
                ing = CELL_ING[to]
                got = min(mult[to], supply[ing] - ms.count(gains, ing))
                more = gains + ms.single(ing, got) if got > 0 else gains
                key = (to, ms.meet(more, needs))
                if key not in nxt:
                    nxt[key] = (path + (to,), more)
        frontier = nxt
        for (cell, _), (path, gains) in nxt.items():
            if cell in others:
                continue
            usable = urgent.usable(hand + gains)
            pour = cache.get(usable)
            if pour is None:
                pour = cache[usable] = urgent.allocate(usable)
                work[0] += 1
            if pour.served and pour.served >= best_saved:
                if pour.served > best_saved:
                    best, best_saved = [], pour.served
                best.append((pour.served, rush, meeple, Ending(cell, gains, path, rush), pour))
        if best_saved >= most:
            break
    return best

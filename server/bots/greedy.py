"""The greedy bot: one clear heuristic per phase, no look-ahead past the current turn.

- Move (R-MOVE): at every move decision, enumerate every way to finish the move (paths.py:
  every end cell and gain, both meeples in a 2-player game) and score what the turn would
  then achieve: the pour allocation of orders.py on cups + hand + gains, which serves what
  it can (tab 4 first, Specialty orders preferred) and otherwise keeps cups on course for
  orders that survive the turn. The best ending is followed step by step; re-planning at
  each step from the new state finds the same ending, because its value only depends on
  the final hand. Rush Tokens buy extra steps only when that serves more orders than any
  free path does (R-FAQ-1).
- Pour (R-POUR): the same allocation: empty a junk cup that is needed, pour toward the
  targets, return the rest.
- Process (R-PROC): serve every match, the cup with fewest matches first (so two cups
  never fight over one card), the most urgent card first.
- Upgrade (R-UPG): trading 3 completed cards (-3) for a tile (+2) loses a point now, so
  it must pay back in later orders: only while many cards remain (EARLY_DECK). Order of
  preference, measured in greedy-vs-greedy games (2 players, 40 games each): Double
  Corners (corners are coffee, ice, milk, steam, the commonest needs) beat Diagonal
  Movement first 27-13 and Double Meeples 24-16; Double Meeples first beat Diagonal first
  29-11. Double Specialties and Diagonal last were even (20-20); Diagonal goes last as
  it also multiplies the paths to consider.
- Setup (R-SETUP-3/4): place on the free cell whose ingredient and neighbours best fit
  our orders; put the second starting token with the first if both fit one recipe.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import NamedTuple

from server.rules import Action, Game, GameView, legal_actions
from server.rules.actions import action_key
from server.rules.data import (
    CELL_ING,
    CELL_NAMES,
    INGREDIENTS,
    ORTHOGONAL_NEIGHBOURS,
    UPGRADE_INDEX,
)
from server.rules.state import MOVE, PLACEMENT, POUR, PROCESS, STARTING_CUP, UPGRADE

from . import multiset as ms
from .budget import Budget
from .determinize import determinize
from .orders import Allocator, Order, player_orders
from .paths import Ending, endings

RUSH_COST = 0.6  # a Rush Token is a tie-break point and a future step
MAX_RUSH = 2  # extra steps considered per move
EARLY_DECK = 30
UPGRADE_PREFERENCE = (
    "double_corners", "double_meeples", "double_specialties", "diagonal_movement",
)


class Choice(NamedTuple):
    """One way to finish the move, as greedy scores it."""

    value: float  # allocation value, less the Rush Tokens spent
    done: float  # the part of value earned by serving this turn, less the Rush Tokens
    served: int
    meeple: int
    ending: Ending


@dataclass(slots=True)
class AllocationMemo:
    """Allocations remembered by (cups, tabs) for a search that meets the same player
    again many times, and a count of the work done through it: the two costs that
    dominate a simulated turn, so a search can bound its CPU by counting (budget.py)."""

    tables: dict[tuple, tuple[Allocator, dict[int, tuple[float, float, int]]]] = field(
        default_factory=dict)
    allocations: int = 0  # Allocator.allocate calls (cache misses)
    endings: int = 0  # ways to finish a move scored
    steps: int = 0  # path steps expanded by rescue searches (endgame.py)


def best_endings(
    game: Game, limit: int = 1, max_rush: int = MAX_RUSH, memo: AllocationMemo | None = None,
    rush_cost: float | None = None,
) -> list[Choice]:
    """The best `limit` ways to finish this move, best first.

    Distinct endings only; a Rush-spending ending is kept only if it serves more orders
    than the best free one (unless `rush_cost` is given: then each token spent costs that
    much, and Rush-paid endings are kept whatever they serve). `memo` (optional, the
    caller's to keep and drop) remembers allocations by cups and tabs, so a search that
    meets the same player again many times does not recompute them; it changes no result.
    """
    player = game.players[game.current]
    meeples = [game.moving] if game.moving is not None else range(len(player.meeples))
    hand = ms.pack(game.hand)
    if memo is None:
        allocator = Allocator(player.cups, player_orders(player))
        cache: dict[int, tuple[float, float, int]] = {}
    else:
        sig = (tuple(map(tuple, player.cups)), tuple(map(tuple, player.tabs)))
        found = memo.tables.get(sig)
        if found is None:
            found = memo.tables[sig] = (Allocator(player.cups, player_orders(player)), {})
            memo.allocations += 1  # building one costs about as much as an allocation
        allocator, cache = found
    scored: list[Choice] = []
    misses = 0
    for m in meeples:
        for e in endings(game, m, max_rush):
            key = allocator.usable(hand + e.gains)
            got = cache.get(key)
            if got is None:
                misses += 1
                alloc = allocator.allocate(key)
                got = cache[key] = (alloc.value, alloc.done, alloc.served)
            cost = (RUSH_COST if rush_cost is None else rush_cost) * e.rush
            scored.append(Choice(got[0] - cost, got[1] - cost, got[2], m, e))
    if memo is not None:
        memo.allocations += misses
        memo.endings += len(scored)
    kept = scored
    if rush_cost is None:
        free_served = max((c.served for c in scored if c.ending.rush == 0), default=0)
        kept = [c for c in scored if c.ending.rush == 0 or c.served > free_served]
    kept.sort(key=lambda c: (-c.value, c.ending.rush, len(c.ending.path), c.meeple, c.ending.path))
    return kept[:limit]


def move_action(game: Game, meeple: int, ending: Ending) -> Action:
    """The next action of a planned move: choose the meeple, step, or stop."""
    if game.moving is None:
        return {"type": "choose_meeple", "meeple": meeple}
    if ending.path:
        return {"type": "step", "cell": CELL_NAMES[ending.path[0]]}
    return {"type": "stop"}


def _move(game: Game) -> Action:
    found = best_endings(game)
    if not found:  # R-MOVE-DEADEND guarantees a way; this is only a safety net
        raise RuntimeError("no legal way to finish the move")
    return move_action(game, found[0].meeple, found[0].ending)


def pour_action(game: Game) -> Action:
    player = game.players[game.current]
    alloc = Allocator(player.cups, player_orders(player)).allocate(ms.pack(game.hand))
    for k, plan in enumerate(alloc.cups):
        if plan.empty_first and player.cups[k]:
            return {"type": "empty", "cup": k}
    for k, plan in enumerate(alloc.cups):
        for ing, count in enumerate(ms.unpack(plan.add)):
            if count:
                return {"type": "pour", "ingredient": INGREDIENTS[ing], "cup": k}
    for ing, count in enumerate(ms.unpack(alloc.returned)):
        if count:
            return {"type": "return", "ingredient": INGREDIENTS[ing]}
    return {"type": "done_pouring"}


def serve_action(game: Game) -> Action:
    serves = [a for a in legal_actions(game) if a["type"] == "serve"]
    if not serves:
        return {"type": "end_turn"}
    per_cup: dict[int, int] = {}
    for a in serves:
        per_cup[a["cup"]] = per_cup.get(a["cup"], 0) + 1
    value = {o.card: o.done_value for o in player_orders(game.players[game.current])}
    return min(serves, key=lambda a: (per_cup[a["cup"]], -value[a["card"]], a["cup"]))


def upgrade_action(game: Game) -> Action:
    player = game.players[game.current]
    if len(game.deck) >= EARLY_DECK:
        for tile in UPGRADE_PREFERENCE:
            if not player.upgrades[UPGRADE_INDEX[tile]]:
                return {"type": "upgrade", "tile": tile}
    return {"type": "skip_upgrade"}


def _cell_value(cell: int, orders: list[Order]) -> float:
    value = 0.0
    for o in orders:
        value += ms.count(o.recipe, CELL_ING[cell]) * o.done_value
        for n in ORTHOGONAL_NEIGHBOURS[cell]:
            value += 0.25 * ms.count(o.recipe, CELL_ING[n]) * o.done_value
    return value


def place_action(game: Game) -> Action:
    orders = player_orders(game.players[game.current])
    taken = {c for p in game.players for c in p.meeples}
    free = [c for c in range(16) if c not in taken]
    best = max(free, key=lambda c: (_cell_value(c, orders), -c))
    return {"type": "place", "cell": CELL_NAMES[best]}


def starting_cup_action(game: Game) -> Action:
    player = game.players[game.current]
    together = ms.of_items(player.cups[0]) + ms.single(CELL_ING[player.meeples[1]])
    if any(ms.fits(together, o.recipe) for o in player_orders(player)):
        return {"type": "starting_cup", "cup": 0}
    return {"type": "starting_cup", "cup": 1}


def act(game: Game) -> Action:
    """The greedy action for the player to act (a legal action of `game`)."""
    phase = game.phase
    if phase == MOVE:
        return _move(game)
    if phase == POUR:
        return pour_action(game)
    if phase == PROCESS:
        return serve_action(game)
    if phase == UPGRADE:
        return upgrade_action(game)
    if phase == PLACEMENT:
        return place_action(game)
    if phase == STARTING_CUP:
        return starting_cup_action(game)
    raise ValueError(f"no decision in phase {phase!r}")


def as_legal(action: Action, legal: list[Action]) -> Action:
    """The entry of `legal` that is `action` (step previews included)."""
    key = action_key(action)
    for candidate in legal:
        if action_key(candidate) == key:
            return candidate
    raise ValueError(f"bot chose an illegal action: {action!r}")


def choose(view: GameView, rng: random.Random, budget: Budget) -> Action:
    game = determinize(view, rng)
    return as_legal(act(game), view["legal"])

"""What a player's orders and cups are worth, and where hand tokens should go (R-POUR, R-PROC).

Multisets are packed ints (multiset.py). The heuristic values:

- Serving an order now is worth 1 (its score) + the chance it would otherwise become a
  penalty (SAVE, by tab: an order on tab 4 that is not served now *is* a penalty) +
  a little for a Specialty (its Rush Token) + a little because every serve deals the
  opponents a card (Too Many Orders, R-END-1).
- A cup part-way to an order is worth a share of that order's value next turn, in
  proportion to the fraction of the recipe it holds. Orders on tab 4 are worth nothing
  part-way: they become penalties at the end of this turn (R-END-2).
- A cup whose contents fit no surviving order ("junk") is worth almost nothing; it is
  emptied when a cup is needed for something better.
"""

from __future__ import annotations

from dataclasses import dataclass

from server.rules.data import CARD_RECIPES, CARD_SPECIALTY
from server.rules.state import Player

from . import multiset as ms

# Chance an order on tab t becomes a penalty if not served this turn (t = 0..3).
SAVE = (0.1, 0.25, 0.5, 1.0)
SPECIALTY_BONUS = 0.3  # one Rush Token: a tie-break and an extra step
DEAL_BONUS = 0.2  # the served card is matched by a card dealt to an opponent
PARTIAL_SHARE = 0.6  # a half-made order is worth less than a made one
JUNK_TOKEN = 0.03

RECIPES: tuple[int, ...] = tuple(ms.of_items(r) for r in CARD_RECIPES)


@dataclass(frozen=True, slots=True)
class Order:
    card: int
    tab: int  # 0..3 = tabs 1..4
    recipe: int  # packed multiset
    size: int
    done_value: float  # worth of serving it this turn
    partial_value: float  # worth of a full cup for it carried into next turn


def done_value(tab: int, specialty: bool) -> float:
    return 1.0 + SAVE[tab] + (SPECIALTY_BONUS if specialty else 0.0) + DEAL_BONUS


def player_orders(player: Player) -> list[Order]:
    """The player's orders, most valuable to serve first."""
    out = []
    for tab, cards in enumerate(player.tabs):
        for card in cards:
            special = CARD_SPECIALTY[card]
            later = 0.0 if tab == 3 else PARTIAL_SHARE * done_value(tab + 1, special)
            size = len(CARD_RECIPES[card])
            out.append(Order(card, tab, RECIPES[card], size, done_value(tab, special), later))
    out.sort(key=lambda o: (-o.done_value, o.card))
    return out


@dataclass(slots=True)
class CupPlan:
    """What to do with one cup this pour phase."""

    empty_first: bool = False
    add: int = ms.EMPTY  # packed tokens to pour in
    target: int | None = None  # card the cup is meant for
    serve: bool = False  # the cup completes its target this turn


@dataclass(slots=True)
class Allocation:
    value: float
    served: int
    done: float  # the part of value earned by serving this turn
    cups: list[CupPlan]
    returned: int  # packed tokens to give back


class Allocator:
    """Everything about (cups, orders) that does not depend on the hand, computed once;
    then `allocate(hand)` is cheap enough to call for every way to end a move."""

    def __init__(self, cups: list[list[int]], orders: list[Order]) -> None:
        self.cups = [ms.of_items(c) for c in cups]
        self.orders = orders
        sizes = [len(c) for c in cups]
        junk = [
            n > 0 and not any(ms.fits(c, o.recipe) for o in orders if o.tab < 3)
            for c, n in zip(self.cups, sizes, strict=True)
        ]
        # Per order (best first): the cups that could hold it, fewest tokens needed first,
        # as (cup, tokens needed, restart = empty the cup first).
        self.complete: list[tuple[Order, list[tuple[int, int, bool]]]] = []
        # (cup, order, tokens still needed, tokens already in, restart, value per token)
        self.progress: list[tuple[int, Order, int, int, bool, float]] = []
        for o in orders:
            options = []
            for k, cup in enumerate(self.cups):
                if ms.fits(cup, o.recipe):
                    options.append((k, o.recipe - cup, False))
                    if o.tab < 3:
                        self.progress.append(
                            (k, o, o.recipe - cup, sizes[k], False, o.partial_value / o.size)
                        )
                elif junk[k]:
                    options.append((k, o.recipe, True))
                    if o.tab < 3:
                        self.progress.append((k, o, o.recipe, 0, True, o.partial_value / o.size))
            options.sort(key=lambda t: ms.size(t[1]))
            self.complete.append((o, options))
        self.junk_value = [JUNK_TOKEN * n for n in sizes]
        # The most of each ingredient any allocation can use: three cups, one order each.
        # Hands that agree up to this cap get the same value (see `usable`).
        cap = [0] * 8
        for ing in range(8):
            counts = sorted((ms.count(o.recipe, ing) for o in orders), reverse=True)
            cap[ing] = sum(counts[:ncups]) if (ncups := len(cups)) else 0
        self.cap = ms.pack(cap)

    def usable(self, hand: int) -> int:
        """The part of a hand that can matter: allocate(usable(h)) has allocate(h)'s value."""
        return ms.meet(hand, self.cap)

    def allocate(self, hand: int) -> Allocation:
        """Greedy: first serve what the hand can complete (most valuable first), then add
        the rest where it makes the most progress; what is left is returned."""
        ncups = len(self.cups)
        plans = [CupPlan() for _ in range(ncups)]
        free = [True] * ncups
        used: set[int] = set()
        value = 0.0
        served = 0
        # 1. Completions. Orders are sorted by value, so the first feasible is the best;
        # each completion only shrinks the hand, so one pass in order suffices.
        for o, options in self.complete:
            for k, need, restart in options:
                if free[k] and ms.fits(need, hand):
                    plans[k] = CupPlan(restart, need, o.card, True)
                    free[k] = False
                    used.add(o.card)
                    hand -= need
                    value += o.done_value
                    served += 1
                    break
        done = value
        # 2. Progress toward orders that survive this turn. A candidate's value can only
        # drop as the hand shrinks, so a lazy greedy re-checks just the one on top.
        ranked = []
        for k, o, need, have, restart, per_token in self.progress:
            if free[k] and o.card not in used:
                val = per_token * (have + ms.size(ms.meet(hand, need)))
                ranked.append((val, k, o, need, have, restart, per_token))
        ranked.sort(key=lambda t: -t[0])
        i = 0
        while i < len(ranked):
            _, k, o, need, have, restart, per_token = ranked[i]
            i += 1
            if not free[k] or o.card in used:
                continue
            add = ms.meet(hand, need)
            val = per_token * (have + ms.size(add))
            if val <= 0.0:
                continue
            if i < len(ranked) and val < ranked[i][0]:
                # Stale: put it back in its place and look again.
                j = i
                while j < len(ranked) and ranked[j][0] > val:
                    j += 1
                ranked.insert(j, (val, k, o, need, have, restart, per_token))
                continue
            plans[k] = CupPlan(restart, add, o.card, False)
            free[k] = False
            used.add(o.card)
            hand -= add
            value += val
        for k in range(ncups):
            if free[k]:
                value += self.junk_value[k]
        return Allocation(value, served, done, plans, hand)


def allocate(cups: list[list[int]], hand: int, orders: list[Order]) -> Allocation:
    return Allocator(cups, orders).allocate(hand)

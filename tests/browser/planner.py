"""Choosing moves for scripted browser games, by asking the rules engine (a mirror of the
server's game: same seed, same actions). The browser then performs them by clicking."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from server.rules import Game, apply, legal_actions

Action = dict[str, Any]


@dataclass
class Plan:
    """A turn for a seat that wants to serve: steps to take, then what to pour where."""

    steps: list[Action] = field(default_factory=list)
    cup: int | None = None
    card: int | None = None
    empty_first: bool = False


def _needs(recipe: dict[str, int], cup: list[str]) -> Counter[str] | None:
    """What a cup still needs to equal `recipe`, or None if it holds something extra."""
    need = Counter(recipe)
    have = Counter(cup)
    if have - need:
        return None
    return need - have


def serve_target(game: Game, seat: int, hand: Counter[str]) -> tuple[int, int, bool] | None:
    """(cup, card id, empty the cup first) if this hand can complete an order."""
    view_players = game.players[seat]
    from server.rules import card_public

    for tab in reversed(view_players.tabs):  # most urgent first
        for card_id in tab:
            recipe = card_public(card_id)["recipe"]
            for k in range(3):
                cup = [_ing(i) for i in view_players.cups[k]]
                for empty in (False, True):
                    need = _needs(recipe, [] if empty else cup)
                    if need is not None and not (need - hand) and sum(need.values()) > 0:
                        return k, card_id, empty
    return None


def _ing(index: int) -> str:
    from server.rules.data import INGREDIENTS

    return INGREDIENTS[index]


def plan_move(game: Game, seat: int) -> Plan:
    """Search free-step paths (up to 3 steps) for one whose gains complete an order."""
    best: Plan | None = None

    def walk(g: Game, steps: list[Action], hand: Counter[str]) -> None:
        nonlocal best
        legal = legal_actions(g)
        if steps and any(a["type"] == "stop" for a in legal):
            target = serve_target(g, seat, hand)
            if target and (best is None or best.cup is None):
                best = Plan(list(steps), *target)
            if best is None:
                best = Plan(list(steps))
        if len(steps) == 3 or (best is not None and best.cup is not None):
            return
        for a in legal:
            if a["type"] == "step" and not a["rush"]:
                nxt = g.clone()
                apply(nxt, a)
                gain = Counter({k: v for k, v in a["gain"].items() if v})
                walk(nxt, [*steps, a], hand + gain)

    walk(game.clone(), [], Counter())
    assert best is not None
    return best


def pour_actions(game: Game, plan: Plan) -> list[Action]:
    """The pour phase for a plan: empty if needed, pour what the order needs, return the rest."""
    from server.rules import card_public

    out: list[Action] = []
    hand = Counter({_ing(i): n for i, n in enumerate(game.hand) if n})
    if plan.cup is not None and plan.card is not None:
        if plan.empty_first:
            out.append({"type": "empty", "cup": plan.cup})
        held = game.players[game.current].cups[plan.cup]
        cup = [] if plan.empty_first else [_ing(i) for i in held]
        need = _needs(card_public(plan.card)["recipe"], cup) or Counter()
        for name, n in sorted(need.items()):
            out += [{"type": "pour", "ingredient": name, "cup": plan.cup}] * n
        hand -= need
    for name, n in sorted(hand.items()):
        out += [{"type": "return", "ingredient": name}] * n
    out.append({"type": "done_pouring"})
    return out

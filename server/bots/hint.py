"""A hint for a learning player: what the expert would do, and one line of why.

`suggest(view, seed, work, deadline)` runs in a bot worker (the pool's process, never on
the event loop) and uses the seat's own view only (R-HIDDEN): the expert decides
(`expert.decide`, its public entry point), then the rest of its plan for the phase is
walked on a rebuilt game to show the whole move (the path of a move, the cup of a pour,
the order of a serve). Within a turn nothing is drawn from the deck, so that walk, and
the hint, are the same for any deck order consistent with the view; the RNG seed comes
from the room's code and the number of actions played, never from the deck.

The why is data, not prose: a sentence key `hint.why.<kind>` and its parameters (an
order's name, a tab, an ingredient, a cup counted from 1, a cell, the steps of a walk,
gains as {ingredient: count}, a tile); the browser makes the sentence in the reader's
language, and names a cell as the board shows it (its ingredient and where it sits, from
the board's component data), never by a coordinate.

This module is what a worker imports (the rules and the bots, no rooms); the request on
the event loop is hint_requests.py's.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from server.rules import MOVE, OVER, POUR, PROCESS, Action, CardView, GameView, apply
from server.rules import view as seat_view

from . import expert
from .budget import Budget
from .determinize import determinize

# Every `hint.why.<kind>` sentence (each in every language: tests/bots/test_hint.py).
WHY = ("only", "upgrade", "skip_upgrade", "move", "move_serve", "move_rush", "move_rush_serve",
       "stop", "pour", "pour_spare", "return", "empty", "serve", "serve_specialty", "place",
       "starting_cup", "done_pouring", "end_turn", "best")
WALK_MAX = 40  # actions of the plan looked at past the first (a move is at most ~20 steps)


# --- the suggestion (in a worker) ---------------------------------------------------------


def hint_seed(code: str, played: int, seat: int) -> int:
    """The hint's RNG seed for a position: reproducible, unrelated to the deck."""
    text = f"hint:{code}:{played}:{seat}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def _plan(view: GameView, rng: random.Random, budget: Budget) -> list[Action]:
    """The expert's action for `view`, then the rest of its plan for this turn (as far as
    the turn's end or WALK_MAX), walked on a game rebuilt from the view."""
    first = expert.decide(view, rng, budget, use_plans=False).action
    plan = [first]
    seat = view["seat"]
    game = determinize(view, random.Random(0))  # the deck is never drawn from below
    turn = game.turn
    action = first
    while len(plan) <= WALK_MAX and action["type"] not in ("end_turn", "undo"):
        apply(game, action)
        if game.phase == OVER or game.current != seat or game.turn != turn:
            break
        here = seat_view(game, seat).copy()
        if not here["legal"]:
            break
        action = expert.decide(here, rng, budget, use_plans=True).action
        plan.append(action)
    return plan


def _card(view: GameView, seat: int, card_id: int) -> tuple[CardView, int] | None:
    """A card on the seat's tabs, and its tab counted from 1."""
    for t, tab in enumerate(view["players"][seat]["tabs"]):
        for card in tab:
            if card["id"] == card_id:
                return card, t + 1
    return None


def _advances(view: GameView, seat: int, cup: list[str], ingredient: str) -> CardView | None:
    """The most urgent order on the seat's tabs that `cup` plus `ingredient` is on course
    for (its contents a part of the recipe)."""
    contents = Counter([*cup, ingredient])
    for tab in reversed(view["players"][seat]["tabs"]):
        for card in tab:
            if all(card["recipe"].get(i, 0) >= n for i, n in contents.items()):
                return card
    return None


def why(view: GameView, plan: list[Action]) -> dict[str, Any]:
    """The one line of why for `plan` (its first action is the suggestion), as a sentence
    key and its parameters."""
    seat = view["seat"]
    assert seat is not None  # a hint is for a seat
    first = plan[0]
    kind = first["type"]
    me = view["players"][seat]
    if len(view["legal"]) == 1:
        return {"key": "hint.why.only", "args": {}}
    if first["type"] == "upgrade":
        return {"key": "hint.why.upgrade", "args": {"tile": first["tile"]}}
    if first["type"] == "skip_upgrade":
        return {"key": "hint.why.skip_upgrade", "args": {}}
    if kind in ("choose_meeple", "step", "stop") and view["phase"] == MOVE:
        cells = path_of(plan)
        gains: Counter[str] = Counter()
        for action in plan:
            if action["type"] == "step":
                gains.update(action.get("gain") or {})
        served = [c[0]["name"] for a in plan if a["type"] == "serve"
                  and (c := _card(view, seat, a["card"])) is not None]
        if not cells:  # the move is over where it stands
            return {"key": "hint.why.stop", "args": {}}
        args: dict[str, Any] = {"cell": cells[-1], "steps": len(cells),
                                "gains": dict(sorted(gains.items()))}
        sentence = "move"
        rush = sum(1 for a in plan if a["type"] == "step" and a.get("rush"))
        if rush:  # steps past the free ones, a Rush Token each (R-MOVE)
            args["rush"] = rush
            sentence = "move_rush"
        if served:
            args["orders"] = served
            sentence += "_serve"
        return {"key": f"hint.why.{sentence}", "args": args}
    if first["type"] == "pour":
        card = _advances(view, seat, me["cups"][first["cup"]], first["ingredient"])
        args = {"ingredient": first["ingredient"], "cup": first["cup"] + 1}
        if card is not None:
            return {"key": "hint.why.pour", "args": {**args, "order": card["name"]}}
        return {"key": "hint.why.pour_spare", "args": args}
    if first["type"] == "return":
        return {"key": "hint.why.return", "args": {"ingredient": first["ingredient"]}}
    if first["type"] == "empty":
        return {"key": "hint.why.empty", "args": {"cup": first["cup"] + 1}}
    if first["type"] == "serve":
        found = _card(view, seat, first["card"])
        if found is not None:
            card, tab = found
            key = "hint.why.serve_specialty" if card["specialty"] else "hint.why.serve"
            return {"key": key, "args": {"order": card["name"], "tab": tab}}
    if first["type"] == "place":
        return {"key": "hint.why.place", "args": {"cell": first["cell"]}}
    if first["type"] == "starting_cup":
        return {"key": "hint.why.starting_cup", "args": {"cup": first["cup"] + 1}}
    if kind in ("done_pouring", "end_turn"):
        return {"key": f"hint.why.{kind}", "args": {}}
    return {"key": "hint.why.best", "args": {}}


def path_of(plan: list[Action]) -> list[str]:
    """The cells a planned move goes through, in order (empty if it is no move)."""
    cells = []
    for action in plan:
        if action["type"] == "step":
            cells.append(action["cell"])
        elif action["type"] not in ("choose_meeple", "upgrade", "skip_upgrade"):
            break
    return cells


def suggest(view: GameView, seed: int, work: float, deadline: float | None = None,
            stop: Callable[[], bool] | None = None) -> dict[str, Any]:
    """Entry point for pool workers: the hint for `view` (a seat's own view, whose turn it
    is): {"action", "path", "why"}. `work` is the share of the expert's work, `deadline`
    the time.monotonic() when it must answer (None: none); `stop` (the pool's, when a bot's
    move waits) cuts the search as the deadline does."""
    legal = view["legal"]
    if not legal:
        raise ValueError("no legal action to suggest")
    rng = random.Random(seed)
    plan = _plan(view, rng, Budget(work, deadline, stop))
    first = plan[0]
    action = next((a for a in legal if a == first), first)
    if view["phase"] in (POUR, PROCESS):
        plan = plan[:1]
    return {"action": action, "path": path_of(plan) if view["phase"] == MOVE else [],
            "why": why(view, plan)}

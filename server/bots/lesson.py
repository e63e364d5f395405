"""The guided first game ("Learn to play"): what the lesson points at next, and why.

A lesson is a 2-player room with the `lesson` option (its fixed deal: rules/variants.py
`Lesson`, R-SETUP-L): the learner in seat 0, who starts, and a greedy bot in seat 1. At
each of the learner's decisions the lesson suggests one action — the greedy bot's, except
that it takes an upgrade whenever one is offered, to show it — and names the concept the
pointer introduces there (a sentence key `learn.<note>` the browser says in the reader's
language, anchored to the element the action is played on).

Everything is decided from the seat's own view (`determinize`, R-HIDDEN) and is the same
for the same position, so the learner who follows the pointers plays the same game every
time (tests/bots/test_lesson.py plays it through the engine). A learner who goes their own
way still gets a pointer for where they are: the guide is a function of the position, not
a script.
"""

from __future__ import annotations

import random
from typing import TypedDict

from server.rules import (
    MOVE,
    OVER,
    PLACEMENT,
    POUR,
    PROCESS,
    STARTING_CUP,
    UPGRADE,
    Action,
    Game,
    GameView,
)
from server.rules.data import CARD_SPECIALTY

from . import greedy
from .determinize import determinize

LEARNER, BOT = 0, 1  # seats
BOT_LEVEL = "greedy"

# Every concept the lesson introduces, in the order a learner first meets them; each is
# the sentence `learn.<note>` (tests/api/test_strings.py: in every language).
NOTES = ("board", "meeples", "starting_cup", "orders", "step", "rush_step", "stop", "hand",
         "cups", "return", "done_pouring", "serve", "serve_specialty", "end_turn", "flow",
         "penalty", "upgrade", "again", "end_again", "end")


class Suggestion(TypedDict):
    """The lesson's pointer: an action and the concept it introduces (`learn.<note>`)."""

    action: Action
    note: str


def suggest(view: GameView) -> Suggestion | None:
    """The lesson's next action for the seat whose turn it is in `view` (that seat's own
    view) and the concept its pointer introduces: {"action", "note"}; None when the seat
    has nothing to decide."""
    legal = view.get("legal") or []
    if not legal or view["phase"] == OVER:
        return None
    game = determinize(view, random.Random(0))  # the deck is never looked at
    action = choose(game, legal)
    return {"action": action, "note": note(view, action)}


def choose(game: Game, legal: list[Action]) -> Action:
    """The lesson's action among `legal` (the actions of `game`'s player to act)."""
    if game.phase == UPGRADE:
        upgrades = [a for a in legal if a["type"] == "upgrade"]
        by_tile = {a["tile"]: a for a in upgrades}
        for tile in greedy.UPGRADE_PREFERENCE:  # shown once it is offered, even late
            if tile in by_tile:
                return by_tile[tile]
    return greedy.as_legal(greedy.act(game), legal)


def note(view: GameView, action: Action) -> str:
    """The concept a pointer at `action` introduces, from where the game stands."""
    seat = view["seat"]
    assert seat is not None  # a seat's own view
    me = view["players"][seat]
    kind = action["type"]
    phase = view["phase"]
    first_turn = me["turns"] == 0
    if phase == PLACEMENT:
        return "board" if not me["meeples"] else "meeples"
    if phase == STARTING_CUP:
        return "starting_cup"
    if phase == UPGRADE:
        return "upgrade"
    if phase == MOVE:
        steps = view["move"]["steps"]
        if kind == "choose_meeple" or (kind == "step" and steps == 0):
            if first_turn:
                return "orders"
            if me["penalties"]:
                return "penalty"
            return "flow" if me["turns"] == 1 else "again"
        if kind == "step":
            return "rush_step" if action.get("rush") else "step"
        return "stop"
    if phase == POUR:
        if kind == "return":
            return "return"
        if kind == "done_pouring":
            return "done_pouring"
        in_hand = sum(view["hand"].values())
        return "hand" if first_turn and in_hand == view["move"]["steps"] else "cups"
    if phase == PROCESS:
        if action["type"] == "serve":
            return "serve_specialty" if CARD_SPECIALTY[action["card"]] else "serve"
        return "end_turn" if first_turn else "end_again"
    return "again"

"""The action types: one entry each, the only place an action type is declared.

An entry gives the type's argument fields (and the informational fields a client may echo
back), the phases it can be played in, the rule it belongs to (for refusal messages) and
the function that applies it (moves.py). Legal actions are listed per phase by legal.py
(one generator per phase, in a stable order that seeded games depend on): a test checks
that every action a generator lists is registered for that phase. The shape check
(actions.action_key), the refusal messages, the client's list of types
(/api/rules-data) and the docs derive from this table.

Adding an action type: an entry here, its apply function in moves.py, its listing in the
phase's generator in legal.py, its tests; the client shows it from the server's data.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from . import moves
from .moves import Action, Events, Key
from .state import MOVE, PLACEMENT, POUR, PROCESS, STARTING_CUP, TURN_PHASES, UPGRADE, Game

Apply = Callable[[Game, Key, Action], Events]


@dataclass(frozen=True, slots=True)
class ActionType:
    name: str
    fields: tuple[str, ...]  # the arguments: (type, *these) is the action's identity
    phases: tuple[str, ...]
    rule: str
    apply: Apply | None  # None: undo, which engine.py plays by replaying the turn
    control: str  # how the table offers it (CONTROLS)
    echoes: tuple[str, ...] = ()  # informational fields a client may send back

    def public(self) -> dict[str, object]:
        """What a client needs to know of the type (for /api/rules-data)."""
        return {"type": self.name, "fields": list(self.fields), "phases": list(self.phases),
                "rule": self.rule, "control": self.control}


# The controls the table has (static/js/intents.js): a new action type that uses one of
# them needs no script, only its strings (a button's label is `btn.<type>`).
CONTROLS = frozenset({
    "cell",  # a board cell (its `cell` field)
    "meeple",  # one of the player's meeples (its `meeple` field)
    "cup",  # one of the player's cups (its `cup` field)
    "tile",  # an upgrade tile (its `tile` field)
    "button",  # a button
    "finish",  # a button that ends a step of the turn (shown as the main one)
    "pour",  # a hand token (its `ingredient`), then a cup (`cup`)
    "return",  # a hand token (its `ingredient`), then the supply
    "empty",  # a cup's empty button (its `cup` field)
    "serve",  # a cup (`cup`), then one of its matching orders (`card`)
    "can_undo",  # not listed: offered through the view's `can_undo`
})


ACTIONS: dict[str, ActionType] = {a.name: a for a in (
    ActionType("place", ("cell",), (PLACEMENT,), "R-SETUP-3", moves.place, "cell"),
    ActionType("starting_cup", ("cup",), (STARTING_CUP,), "R-SETUP-4", moves.starting_cup,
               "cup"),
    ActionType("upgrade", ("tile",), (UPGRADE,), "R-UPG", moves.upgrade, "tile"),
    ActionType("skip_upgrade", (), (UPGRADE,), "R-UPG", moves.skip_upgrade, "button"),
    ActionType("choose_meeple", ("meeple",), (MOVE,), "R-MOVE", moves.choose_meeple, "meeple"),
    ActionType("step", ("cell",), (MOVE,), "R-MOVE", moves.step, "cell", echoes=("gain", "rush")),
    ActionType("stop", (), (MOVE,), "R-MOVE", moves.stop, "button"),
    ActionType("pour", ("ingredient", "cup"), (POUR,), "R-POUR", moves.pour, "pour"),
    ActionType("return", ("ingredient",), (POUR,), "R-POUR", moves.return_token, "return"),
    ActionType("empty", ("cup",), (POUR,), "R-POUR", moves.empty, "empty"),
    ActionType("done_pouring", (), (POUR,), "R-POUR", moves.done_pouring, "finish"),
    ActionType("serve", ("cup", "card"), (PROCESS,), "R-PROC", moves.serve, "serve"),
    ActionType("end_turn", (), (PROCESS,), "R-END", moves.end_turn, "finish"),
    ActionType("undo", (), TURN_PHASES, "R-TURN", None, "can_undo"),
)}


def allowed_in(phase: str) -> tuple[str, ...]:
    """The action types playable in `phase` (undo aside)."""
    return tuple(a.name for a in ACTIONS.values() if phase in a.phases and a.apply is not None)

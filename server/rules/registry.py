"""The action types: one entry each, the only place an action type is declared.

An entry gives the type's argument fields (and the informational fields a client may echo
back), the phases it can be played in, the rule it belongs to (for refusal messages) and
the function that applies it (moves.py). Legal actions are listed per phase by legal.py
(one generator per phase, in a stable order that seeded games depend on): a test checks
that every action a generator lists is registered for that phase. The shape check
(actions.action_key), the refusal messages, the client's list of types
(/api/rules-data) and the docs derive from this table.

Adding an action type: its shape and its listing in the phase's generator in legal.py, an
entry here (its type and fields are read from the shape), its apply function in moves.py,
its tests; the client shows it from the server's data.
"""

from __future__ import annotations

import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import moves
from .legal import (
    ChooseMeeple,
    DonePouring,
    Empty,
    EndTurn,
    Place,
    Pour,
    Return,
    Serve,
    SkipUpgrade,
    StartingCup,
    Step,
    Stop,
    Undo,
    Upgrade,
)
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
    shape: Any = None  # its TypedDict (legal.py)

    def public(self) -> dict[str, object]:
        """What a client needs to know of the type (for /api/rules-data)."""
        return {"type": self.name, "fields": list(self.fields), "phases": list(self.phases),
                "rule": self.rule, "control": self.control}


# The controls the table has (static/js/table/intents.js): a new action type that uses one of
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


def entry(shape: Any, phases: tuple[str, ...], rule: str, apply: Apply | None, control: str,
          echoes: tuple[str, ...] = ()) -> ActionType:
    """An action type whose name and fields are its shape's: the `type` literal, then the
    other keys in order, but the echoes (NotRequired ones, which Python 3.11 cannot tell
    apart at run time)."""
    keys = list(shape.__annotations__)
    assert keys[0] == "type", f"{shape.__name__}: `type` first"
    (name,) = typing.get_args(typing.get_type_hints(shape)["type"])
    fields = tuple(k for k in keys[1:] if k not in echoes)
    return ActionType(name, fields, phases, rule, apply, control, echoes, shape)


ACTIONS: dict[str, ActionType] = {a.name: a for a in (
    entry(Place, (PLACEMENT,), "R-SETUP-3", moves.place, "cell"),
    entry(StartingCup, (STARTING_CUP,), "R-SETUP-4", moves.starting_cup, "cup"),
    entry(Upgrade, (UPGRADE,), "R-UPG", moves.upgrade, "tile"),
    entry(SkipUpgrade, (UPGRADE,), "R-UPG", moves.skip_upgrade, "button"),
    entry(ChooseMeeple, (MOVE,), "R-MOVE", moves.choose_meeple, "meeple"),
    entry(Step, (MOVE,), "R-MOVE", moves.step, "cell", echoes=("gain", "rush")),
    entry(Stop, (MOVE,), "R-MOVE", moves.stop, "button"),
    entry(Pour, (POUR,), "R-POUR", moves.pour, "pour"),
    entry(Return, (POUR,), "R-POUR", moves.return_token, "return"),
    entry(Empty, (POUR,), "R-POUR", moves.empty, "empty"),
    entry(DonePouring, (POUR,), "R-POUR", moves.done_pouring, "finish"),
    entry(Serve, (PROCESS,), "R-PROC", moves.serve, "serve"),
    entry(EndTurn, (PROCESS,), "R-END", moves.end_turn, "finish"),
    entry(Undo, TURN_PHASES, "R-TURN", None, "can_undo"),
)}


def allowed_in(phase: str) -> tuple[str, ...]:
    """The action types playable in `phase` (undo aside)."""
    return tuple(a.name for a in ACTIONS.values() if phase in a.phases and a.apply is not None)

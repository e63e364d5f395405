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
    echoes: tuple[str, ...] = ()  # informational fields a client may send back

    def public(self) -> dict[str, object]:
        """What a client needs to know of the type (for /api/rules-data)."""
        return {"type": self.name, "fields": list(self.fields), "phases": list(self.phases),
                "rule": self.rule}


ACTIONS: dict[str, ActionType] = {a.name: a for a in (
    ActionType("place", ("cell",), (PLACEMENT,), "R-SETUP-3", moves.place),
    ActionType("starting_cup", ("cup",), (STARTING_CUP,), "R-SETUP-4", moves.starting_cup),
    ActionType("upgrade", ("tile",), (UPGRADE,), "R-UPG", moves.upgrade),
    ActionType("skip_upgrade", (), (UPGRADE,), "R-UPG", moves.skip_upgrade),
    ActionType("choose_meeple", ("meeple",), (MOVE,), "R-MOVE", moves.choose_meeple),
    ActionType("step", ("cell",), (MOVE,), "R-MOVE", moves.step, echoes=("gain", "rush")),
    ActionType("stop", (), (MOVE,), "R-MOVE", moves.stop),
    ActionType("pour", ("ingredient", "cup"), (POUR,), "R-POUR", moves.pour),
    ActionType("return", ("ingredient",), (POUR,), "R-POUR", moves.return_token),
    ActionType("empty", ("cup",), (POUR,), "R-POUR", moves.empty),
    ActionType("done_pouring", (), (POUR,), "R-POUR", moves.done_pouring),
    ActionType("serve", ("cup", "card"), (PROCESS,), "R-PROC", moves.serve),
    ActionType("end_turn", (), (PROCESS,), "R-END", moves.end_turn),
    ActionType("undo", (), TURN_PHASES, "R-TURN", None),
)}


def allowed_in(phase: str) -> tuple[str, ...]:
    """The action types playable in `phase` (undo aside)."""
    return tuple(a.name for a in ACTIONS.values() if phase in a.phases and a.apply is not None)

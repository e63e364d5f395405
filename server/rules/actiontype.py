"""What an action type is: the declaration each module of server/rules/actions/ makes.

A module there is one action type: its shape (a TypedDict: the `type` literal, then its
argument fields in order, then the informational fields a client may echo back), `legal`
(which of its actions are legal now), `apply` (what one does), and `ACTION = declare(...)`
with its phases, its place in the phase's list, its rule id and how the table offers it.
The registry, the phase lists (legal.py), the shape check (actions.action_key), the
client's list (/api/rules-data), the JSDoc types and PROTOCOL.md derive from them.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from .events import ActionEvent
from .state import PHASES, Game

Key = tuple[Any, ...]  # an action's identity: (type, *arguments), see actions.action_key
Events = list[ActionEvent]
# An action type's shape: the TypedDict its module declares (each is a Mapping[str, object]).
Shape = TypeVar("Shape", bound=Mapping[str, object])
# `apply(game, key, legal)`: `legal` is the listed action of that key, of the type's shape.
Apply = Callable[[Game, Key, Shape], Events]
# `legal(game, out)` appends this type's legal actions to `out` (cheaper than a list per
# type and a join); with `each="held"`, `legal(game, ingredient, out)` for one held kind.
Legal = Callable[..., None]

# The controls the table has (static/js/table/intents.js): a new action type that uses one
# of them needs no script, only its strings (a button's label is `btn.<type>`).
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
# How a phase's list goes over the types listed with `each`: per kind of token in hand, in
# ingredient order, every such type's actions for that kind (pours, then its return).
EACH = ("held",)

# Legal actions are shared, read-only dicts built once; KEY_OF maps each one's id to its key
# (see actions.action_key), so applying a listed dict needs no parsing.
KEY_OF: dict[int, Key] = {}


def keep(key: Key, action: Shape) -> Shape:
    """`action`, a dict built once and listed whenever legal, known by its key."""
    KEY_OF[id(action)] = key
    return action


@dataclass(frozen=True, slots=True)
class ActionType(Generic[Shape]):
    name: str
    fields: tuple[str, ...]  # the arguments: (type, *these) is the action's identity
    phases: tuple[str, ...]
    rule: str
    apply: Apply[Shape] | None  # None: undo, which engine.py plays by replaying the turn
    control: str  # how the table offers it (CONTROLS)
    echoes: tuple[str, ...]  # informational fields a client may send back
    shape: type[Shape]  # its TypedDict
    legal: Legal | None = None  # None: never listed (undo)
    order: int = 0  # its place in its phases' lists (seeded games depend on that order)
    each: str | None = None  # listed per held ingredient with the phase's others (EACH)

    def public(self) -> dict[str, object]:
        """What a client needs to know of the type (for /api/rules-data)."""
        return {"type": self.name, "fields": list(self.fields), "phases": list(self.phases),
                "rule": self.rule, "control": self.control}

    def rank(self) -> tuple[bool, int, int]:
        """Where the type comes in the registry: by its first phase, then its place there;
        the types never listed last."""
        return self.legal is None, PHASES.index(self.phases[0]), self.order


def declare(
    shape: type[Shape], *, phases: tuple[str, ...], rule: str, control: str,
    apply: Apply[Shape] | None = None, legal: Legal | None = None, order: int = 0,
    each: str | None = None, echoes: tuple[str, ...] = (),
) -> ActionType[Shape]:
    """An action type whose name and fields are its shape's: the `type` literal, then the
    other keys in order, but the echoes (NotRequired ones, which Python 3.11 cannot tell
    apart at run time)."""
    keys = list(shape.__annotations__)
    assert keys[0] == "type", f"{shape.__name__}: `type` first"
    (name,) = typing.get_args(typing.get_type_hints(shape)["type"])
    assert control in CONTROLS, f"{name}: unknown control {control!r}"
    assert each is None or each in EACH, f"{name}: unknown listing {each!r}"
    assert (apply is None) == (legal is None), f"{name}: listed and applied, or neither"
    fields = tuple(k for k in keys[1:] if k not in echoes)
    return ActionType(name, fields, phases, rule, apply, control, echoes, shape, legal,
                      order, each)

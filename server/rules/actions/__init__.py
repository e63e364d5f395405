"""The action types, one module each (place.py, step.py, ...), and the shape check.

Each module here declares one action type (server/rules/actiontype.py says what a module
holds): this package finds them all, so adding an action type is adding its module, its
tests and its strings. `ACTIONS` is the registry (in the order of the phases, then of each
type's place in its phase), from which the phase lists, the engine, the client's data and
the docs derive.

Actions are small JSON-serializable dicts with a "type"; `action_key` checks their shape
(and server/rules/action.py's `parse_action` makes data an `Action` with it, at the
boundaries). Legality is legal.py's job; here we only refuse what is not an action at all.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from ..actiontype import ActionType
from ..data import CELL_INDEX, CUPS, ING_INDEX, UPGRADE_INDEX
from ..errors import MalformedAction


def _declared() -> dict[str, ActionType[Any]]:
    found = [importlib.import_module(f"{__name__}.{module.name}").ACTION
             for module in pkgutil.iter_modules(__path__)]
    found.sort(key=ActionType.rank)
    places = [(phase, a.order, a.legal is None) for a in found for phase in a.phases]
    assert len(set(places)) == len(places), "two action types at one place in a phase"
    return {a.name: a for a in found}


ACTIONS: dict[str, ActionType[Any]] = _declared()

# type -> (required argument fields, informational fields a client may echo back)
SCHEMA: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    a.name: (a.fields, a.echoes) for a in ACTIONS.values()
}


def _check_arg(kind: str, name: str, value: object) -> None:
    ok: bool
    if name == "cell":
        ok = isinstance(value, str) and value in CELL_INDEX
    elif name == "cup":
        ok = type(value) is int and 0 <= value < CUPS
    elif name == "meeple":
        ok = type(value) is int and 0 <= value < 2
    elif name == "ingredient":
        ok = isinstance(value, str) and value in ING_INDEX
    elif name == "tile":
        ok = isinstance(value, str) and value in UPGRADE_INDEX
    elif name == "card":
        ok = type(value) is int and 0 <= value < 80
    else:  # a field an action module declares and this function does not know
        raise AssertionError(f"{kind}: no check for field {name!r}")
    if not ok:
        raise MalformedAction(f"{kind}: bad value for {name!r}: {value!r}", "R-TURN")


def action_key(action: object) -> tuple[Any, ...]:
    """Check an action's shape and return its identity: (type, *arguments)."""
    if not isinstance(action, dict):
        raise MalformedAction("an action must be an object with a 'type'", "R-TURN")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in SCHEMA:
        raise MalformedAction(f"unknown action type: {kind!r}", "R-TURN")
    required, informational = SCHEMA[kind]
    for name in action:
        if name != "type" and name not in required and name not in informational:
            raise MalformedAction(f"{kind}: unknown field {name!r}", "R-TURN")
    values = []
    for name in required:
        if name not in action:
            raise MalformedAction(f"{kind}: missing field {name!r}", "R-TURN")
        value = action[name]
        _check_arg(kind, name, value)
        values.append(value)
    return (kind, *values)

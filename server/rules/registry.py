"""The action types by name: declared one module each in actions/ (what a declaration
holds: actiontype.py). The shape check (actions.action_key), the phase lists (legal.py),
the engine's dispatch and refusal messages, the client's list of types (/api/rules-data)
and the docs derive from this table.

Adding an action type: its module in actions/ (its shape, `legal`, `apply` and `ACTION =
declare(...)`), its tests and its strings; the client shows it from the server's data.
"""

from __future__ import annotations

from .actions import ACTIONS
from .actiontype import CONTROLS, ActionType, Apply

__all__ = ["ACTIONS", "CONTROLS", "ActionType", "Apply", "allowed_in"]


def allowed_in(phase: str) -> tuple[str, ...]:
    """The action types playable in `phase` (undo aside)."""
    return tuple(a.name for a in ACTIONS.values() if phase in a.phases and a.apply is not None)

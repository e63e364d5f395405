"""The shapes of a seat's whole view: what view.py returns (the parts are shapes.py's).

They list the seat's legal actions, so they name the union of the action shapes
(action.py) and sit above the action modules; shapes.py is below them (the state and the
actions' events use its shapes) and could not name the union without an import cycle.
"""

from __future__ import annotations

from typing import TypedDict

from .action import Action
from .shapes import CardView, FinalResult, MoveView, PlayerView, PublicView, Result, Score


class SeatExtras(TypedDict):
    """The part of a view that depends on who looks."""

    seat: int | None
    can_undo: bool
    legal: list[Action]


class GameView(PublicView, SeatExtras):
    """The whole view for a seat (or a spectator)."""


# Every shape of a view, in the order the JSDoc typedefs list them.
SHAPES: tuple[type, ...] = (
    CardView, Score, PlayerView, MoveView, Result, FinalResult, PublicView, SeatExtras, GameView,
)

"""Take back the last action of this turn (R-TURN). Never listed: offered through the
view's `can_undo`, and played by the engine itself (engine._undo replays the turn)."""

from __future__ import annotations

from typing import Literal, TypedDict

from ..actiontype import declare
from ..state import TURN_PHASES


class Undo(TypedDict):
    """Offered through the view's `can_undo`, never listed."""

    type: Literal["undo"]


ACTION = declare(Undo, phases=TURN_PHASES, rule="R-TURN", control="can_undo")

"""How a stored game ended, beyond the engine's own reasons.

A game is *abandoned* when it did not end with its players at the table:

- its room expired before the end (nobody connected for ROOM_IDLE_TTL): it is stored with
  `abandoned_result`, the standings when it stopped, reason "abandoned" and no winner;
- or every player had left and bots standing in for them played it to its end: the
  engine's result stands, and the seats say which bot played for whom.

A game with no human player (bots only) is never abandoned: nobody left it.
"""

from __future__ import annotations

from collections.abc import Iterable

from server.db.models import ABANDONED
from server.db.records import PlayerResult
from server.rules import Game, Result, final_result


def abandoned_result(game: Game) -> Result:
    """The record of a game stopped before its end: the engine's ranking of the position
    it reached, with reason "abandoned" and no winners."""
    return {**final_result(game), "reason": ABANDONED, "winners": []}


def is_abandoned(end_reason: str | None, players: Iterable[PlayerResult]) -> bool:
    if end_reason == ABANDONED:
        return True
    humans = [p for p in players if p.bot is None]
    return bool(humans) and all(p.stand_in is not None for p in humans)

"""The shapes of what the engine shows: the parts of a view of the game, its final result.

view.py and scoring.py build these; mypy checks their readers (rooms, bots, history)
against them, and the browser's JSDoc typedefs are generated from them
(`python -m server.api.jsdoc`, drift-tested). The whole view of a seat, which lists its
legal actions, is seatview.py's (above the action modules: their shapes are in actions/,
their union in action.py); the engine's events have their shapes in events.py.
"""

from __future__ import annotations

from typing import Any, TypedDict


class CardView(TypedDict):
    """An order card that has been drawn."""

    id: int
    name: str
    recipe: dict[str, int]  # ingredient -> how many
    specialty: bool


class Score(TypedDict):
    """A player's score, part by part (R-SCORE)."""

    orders: int
    upgrades: int
    penalties: int
    total: int
    rush: int
    tiles: list[str]  # the active upgrade tiles


class PlayerView(TypedDict):
    """One player in the game view."""

    seat: int
    meeples: list[str]  # cell names
    tabs: list[list[CardView]]  # each tab's orders, oldest first
    cups: list[list[str]]  # each cup's ingredients
    completed: list[CardView]
    penalties: list[CardView]
    rush: int
    upgrades: dict[str, bool]  # tile -> active
    turns: int
    score: Score


class MoveView(TypedDict):
    """The meeple moving this turn, the steps taken and the cells it went through."""

    meeple: int | None
    steps: int
    free_steps_left: int
    path: list[str]


class Result(TypedDict):
    """The final ranking with shared places (R-SCORE)."""

    reason: str | None
    scores: list[Score]
    ranking: list[int]  # seats, best first
    places: list[int]  # per seat, 1 = first (shared on a full tie)
    winners: list[int]
    turns: list[int]


class FinalResult(Result):
    """The result as a view shows it: once the game is over, its seed (as text: 64 bits)
    and its deck order are public (R-HIDDEN)."""

    seed: str
    deck: list[int]


class PublicView(TypedDict):
    """The part of every view that is the same for all viewers."""

    rules_version: int
    players_count: int
    options: dict[str, Any]
    phase: str
    current: int
    start: int
    turn: int
    closed: bool
    close_reason: str | None
    deck: int  # cards left: a count, never their order (R-HIDDEN)
    supply: dict[str, int]
    rush_supply: int
    discard: list[CardView]
    set_aside: list[CardView]
    pending: list[int]
    players: list[PlayerView]
    move: MoveView
    hand: dict[str, int]
    served: int
    upgraded: bool
    result: FinalResult | None

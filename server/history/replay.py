"""Rebuilding a finished game from (seed, options, actions) with the engine.

A stored game keeps only its seed, options and the accepted actions in order (undos
included); randomness is part of the state, so replaying them rebuilds every position.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from server.rooms.diff import Op, diff
from server.rules import Action as RulesAction
from server.rules import (
    Game,
    GameEvent,
    GameOptions,
    GameView,
    RuleError,
    apply,
    new_game_from,
    view,
)

Played = tuple[int | None, RulesAction]


class ReplayError(ValueError):
    """The stored game cannot be rebuilt: bad options, or an action the engine refuses."""

    def __init__(self, index: int, code: str, message: str) -> None:
        super().__init__(message)
        self.index = index  # 1-based number of the refused action; 0 for the setup
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class Step:
    """The game after action number `index` (1-based)."""

    index: int
    seat: int | None
    action: RulesAction
    events: list[GameEvent]
    turn: int  # main turns begun so far (0 during the setup)
    phase: str
    ops: list[Op]  # JSON Patch turning the previous step's spectator view into this one

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index, "seat": self.seat, "action": self.action,
            "events": self.events, "turn": self.turn, "phase": self.phase, "ops": self.ops,
        }


def start(seed: int, options: Mapping[str, Any]) -> Game:
    """The game as dealt, before the first action."""
    try:
        return new_game_from(seed, GameOptions.from_dict(options))
    except RuleError as e:
        raise ReplayError(0, e.code, e.message) from None
    except (KeyError, TypeError) as e:
        raise ReplayError(0, "malformed_action", f"bad game options: {e}") from None


def _apply(game: Game, index: int, seat: int | None, action: RulesAction
           ) -> list[GameEvent]:
    try:
        return apply(game, action, seat)
    except RuleError as e:
        raise ReplayError(index, e.code, f"action {index}: {e.message}") from None


def replay_game(seed: int, options: Mapping[str, Any], actions: Iterable[Played]) -> Game:
    """The final state reached by playing `actions` from the deal."""
    game = start(seed, options)
    for index, (seat, action) in enumerate(actions, 1):
        _apply(game, index, seat, action)
    return game


def replay_steps(
    seed: int, options: Mapping[str, Any], actions: Iterable[Played]
) -> tuple[GameView, list[Step]]:
    """The spectator view of the deal and, for every action, the step it makes (with the
    patch from the previous view, the same diff live play sends)."""
    game = start(seed, options)
    first = previous = view(game, None)
    steps: list[Step] = []
    for index, (seat, action) in enumerate(actions, 1):
        events = _apply(game, index, seat, action)
        current = view(game, None)
        steps.append(Step(index, seat, action, events, game.turn, game.phase,
                          diff(previous, current)))
        previous = current
    return first, steps

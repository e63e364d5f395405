"""Typed refusals. Every refusal has a stable code and names the rule it enforces."""

from __future__ import annotations


class RuleError(ValueError):
    """An action was refused; the game state is unchanged."""

    code = "illegal_action"

    def __init__(self, message: str, rule: str | None = None) -> None:
        self.rule = rule
        super().__init__(f"{message} ({rule})" if rule else message)

    @property
    def message(self) -> str:
        return str(self)


class MalformedAction(RuleError):
    code = "malformed_action"


class IllegalAction(RuleError):
    code = "illegal_action"


class NotYourTurn(RuleError):
    code = "not_your_turn"


class GameOver(RuleError):
    code = "game_over"


class NothingToUndo(RuleError):
    code = "nothing_to_undo"


class CorruptState(ValueError):
    """A serialized state failed to load: it breaks an invariant of the game."""

    code = "corrupt_state"

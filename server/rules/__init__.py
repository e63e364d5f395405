"""The game of Coffee Rush as a pure, deterministic rules engine (see RULES.md).

    game = new_game(seed=7, players=4)
    while game.phase != "over":
        events = apply(game, legal_actions(game)[0])
"""

from .data import RULES_VERSION, card_public
from .engine import apply, can_undo
from .errors import (
    CorruptState,
    GameOver,
    IllegalAction,
    MalformedAction,
    NothingToUndo,
    NotYourTurn,
    RuleError,
)
from .invariants import check_invariants
from .legal import legal_actions
from .scoring import final_result, score
from .serialize import from_dict, to_dict
from .setup import new_game
from .state import Game
from .view import public_view, seat_extras, view

__all__ = [
    "RULES_VERSION", "CorruptState", "Game", "GameOver", "IllegalAction", "MalformedAction",
    "NothingToUndo", "NotYourTurn", "RuleError", "apply", "can_undo", "card_public",
    "check_invariants", "final_result", "from_dict", "legal_actions", "new_game",
    "public_view", "score", "seat_extras", "to_dict", "view",
]

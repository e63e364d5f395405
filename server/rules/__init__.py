"""The game of Coffee Rush as a pure, deterministic rules engine (see RULES.md).

    game = new_game(seed=7, players=4)
    while not is_over(game):
        events = apply(game, legal_actions(game)[0])
"""

from .action import Action, parse_action
from .data import REPLAYED_VERSIONS, RULES_VERSION, card_public
from .engine import GameEvent, Undone, apply, can_undo, turn_actions
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
from .options import GAME_OPTION_NAMES, MAX_PLAYERS, MIN_PLAYERS, GameOptions
from .scoring import final_result, score
from .seatview import GameView, SeatExtras
from .serialize import from_dict, to_dict
from .setup import new_game, new_game_from
from .shapes import (
    CardView,
    FinalResult,
    PlayerView,
    PublicView,
    Result,
    Score,
)
from .state import (
    MOVE,
    OVER,
    PHASES,
    PLACEMENT,
    POUR,
    PROCESS,
    STARTING_CUP,
    TURN_PHASES,
    UPGRADE,
    Game,
    is_over,
)
from .view import public_view, seat_extras, view

__all__ = [
    "GAME_OPTION_NAMES", "MAX_PLAYERS", "MIN_PLAYERS", "MOVE", "OVER", "PHASES", "PLACEMENT",
    "POUR", "PROCESS", "REPLAYED_VERSIONS", "RULES_VERSION", "STARTING_CUP", "TURN_PHASES",
    "UPGRADE",
    "Action", "CardView", "FinalResult", "GameEvent", "GameView", "PlayerView", "PublicView",
    "Result", "Score", "SeatExtras", "Undone",
    "CorruptState", "Game", "GameOptions", "GameOver", "IllegalAction", "MalformedAction",
    "NothingToUndo", "NotYourTurn", "RuleError", "apply", "can_undo", "card_public",
    "check_invariants", "final_result", "from_dict", "is_over", "legal_actions", "new_game",
    "new_game_from", "parse_action", "public_view", "score", "seat_extras", "to_dict",
    "turn_actions", "view",
]

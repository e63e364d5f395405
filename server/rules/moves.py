"""The shared steps of the turn structure (R-SETUP, R-TURN): what several action types do
(a starting token into a cup, the start of a turn). What each action type does is in its
module in actions/.
"""

from __future__ import annotations

from .actiontype import Events
from .data import CELL_ING, INGREDIENTS, UPGRADE_COST
from .events import StartingToken
from .state import MOVE, UPGRADE, Game, TurnStart


def take_into_cup(game: Game, seat: int, meeple: int, cup: int) -> StartingToken:
    """R-SETUP-4: the token under a meeple goes into a cup (if the supply has one)."""
    ing = CELL_ING[game.players[seat].meeples[meeple]]
    got = 1 if game.supply[ing] else 0
    if got:
        game.supply[ing] -= 1
        game.players[seat].cups[cup].append(ing)
    return {"type": "starting_token", "seat": seat, "ingredient": INGREDIENTS[ing],
            "cup": cup, "count": got}


def begin_turn(game: Game, seat: int) -> Events:
    game.current = seat
    game.turn += 1
    game.hand = [0] * 8
    game.moving = None if game.n == 2 else 0
    game.steps = 0
    game.path = []
    game.served = 0
    game.upgraded = False
    game.turn_log = []
    game.phase = UPGRADE if can_upgrade(game) else MOVE
    if game.moving is not None:
        game.path = [game.players[seat].meeples[0]]
    game.turn_start = TurnStart(
        game.players[seat].clone(), game.supply[:], game.rush_supply, game.discard[:],
        game.phase,
    )
    return [{"type": "turn_started", "seat": seat, "turn": game.turn, "phase": game.phase}]


def can_upgrade(game: Game) -> bool:
    """R-UPG: at least 3 completed orders and an inactive tile, once per turn."""
    player = game.players[game.current]
    return (
        not game.upgraded
        and len(player.completed) >= UPGRADE_COST
        and not all(player.upgrades)
    )

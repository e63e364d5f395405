"""Scores, tie-breaks and the final result (R-SCORE)."""

from __future__ import annotations

from .data import UPGRADES
from .shapes import Result, Score
from .state import Game, Player

ORDER_POINTS = 1  # per completed order still held
TILE_POINTS = 2  # per active Upgrade Tile
PENALTY_POINTS = -1  # per Penalty Card


def total(player: Player) -> int:
    """The score as it stands (R-SCORE): the one formula, for the result and for bots."""
    return (ORDER_POINTS * len(player.completed) + TILE_POINTS * sum(player.upgrades)
            + PENALTY_POINTS * len(player.penalties))


def score(player: Player) -> Score:
    """+1 per completed order held, +2 per active tile, -1 per penalty."""
    orders = ORDER_POINTS * len(player.completed)
    upgrades = TILE_POINTS * sum(player.upgrades)
    penalties = PENALTY_POINTS * len(player.penalties)
    return {
        "orders": orders,
        "upgrades": upgrades,
        "penalties": penalties,
        "total": total(player),
        "rush": player.rush,
        "tiles": [UPGRADES[i] for i, on in enumerate(player.upgrades) if on],
    }


def rank_key(player: Player) -> tuple[int, int, int]:
    """Higher is better: total, then completed orders, then Rush Tokens."""
    s = score(player)
    return (s["total"], s["orders"], player.rush)


def final_result(game: Game) -> Result:
    """The ranking with shared places, the winners and why the game ended."""
    keys = [rank_key(p) for p in game.players]
    ranking = sorted(range(game.n), key=lambda seat: (tuple(-k for k in keys[seat]), seat))
    places = [1 + sum(1 for other in keys if other > keys[seat]) for seat in range(game.n)]
    return {
        "reason": game.close_reason,
        "scores": [score(p) for p in game.players],
        "ranking": ranking,
        "places": places,
        "winners": [seat for seat in range(game.n) if places[seat] == 1],
        "turns": [p.turns for p in game.players],
    }

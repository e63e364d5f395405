"""What a seat or a spectator may see (R-HIDDEN): everything public, the deck as a count."""

from __future__ import annotations

from typing import Any

from .data import BASE_STEPS, CARD_VIEWS, CELL_NAMES, INGREDIENTS, RULES_VERSION, UPGRADES
from .engine import can_undo
from .legal import legal_actions
from .scoring import score
from .state import OVER, Game, Player


def _ingredients(counts: list[int]) -> dict[str, int]:
    return {INGREDIENTS[i]: c for i, c in enumerate(counts)}


def _player(seat: int, p: Player) -> dict[str, Any]:
    return {
        "seat": seat,
        "meeples": [CELL_NAMES[c] for c in p.meeples],
        "tabs": [[CARD_VIEWS[c] for c in tab] for tab in p.tabs],
        "cups": [[INGREDIENTS[i] for i in cup] for cup in p.cups],
        "completed": [CARD_VIEWS[c] for c in p.completed],
        "penalties": [CARD_VIEWS[c] for c in p.penalties],
        "rush": p.rush,
        "upgrades": {name: p.upgrades[i] for i, name in enumerate(UPGRADES)},
        "turns": p.turns,
        "score": score(p),
    }


def _players(game: Game) -> list[dict[str, Any]]:
    """Every player's view; one whose state is unchanged since the last call is the very
    same dict, so a diff against the last view skips it without looking inside."""
    cache = game.view_cache
    if cache is None or len(cache) != game.n:
        cache = game.view_cache = []
    views = []
    for seat, player in enumerate(game.players):
        if seat < len(cache) and cache[seat][0] == player:
            views.append(cache[seat][1])
            continue
        view = _player(seat, player)
        entry = (player.clone(), view)
        if seat < len(cache):
            cache[seat] = entry
        else:
            cache.append(entry)
        views.append(view)
    return views


def public_view(game: Game) -> dict[str, Any]:
    """The part of every view that is the same for all viewers. Read-only: parts that did
    not change are shared with the views returned before."""
    view = {
        "rules_version": RULES_VERSION,
        "players_count": game.n,
        "options": {"starter_orders": game.options.starter_orders},
        "phase": game.phase,
        "current": game.current,
        "start": game.start,
        "turn": game.turn,
        "closed": game.closed,
        "close_reason": game.close_reason,
        "deck": len(game.deck),
        "supply": _ingredients(game.supply),
        "rush_supply": game.rush_supply,
        "discard": [CARD_VIEWS[c] for c in game.discard],
        "set_aside": [CARD_VIEWS[c] for c in game.set_aside],
        "pending": game.pending[:],
        "players": _players(game),
        "move": {
            "meeple": game.moving,
            "steps": game.steps,
            "free_steps_left": max(0, BASE_STEPS - game.steps),
            "path": [CELL_NAMES[c] for c in game.path],
        },
        "hand": _ingredients(game.hand),
        "served": game.served,
        "upgraded": game.upgraded,
        "result": None,
    }
    if game.phase == OVER:
        # R-HIDDEN: once the game is over its seed and deck order are public. The seed is a
        # 64-bit number, beyond what a JavaScript number holds exactly (2^53): sent as text.
        assert game.result is not None
        view["result"] = {**game.result, "seed": str(game.seed), "deck": game.deck[::-1]}
    return view


# The extras of a seat that is not acting: one shared dict per seat, so from one version
# to the next a waiting seat's part of the view is the same object.
_WAITING: dict[int | None, dict[str, Any]] = {}


def seat_extras(game: Game, seat: int | None) -> dict[str, Any]:
    """The part of a view that depends on who looks: their seat, their legal actions.
    Read-only (a waiting seat's is shared)."""
    if seat is None or seat != game.current or game.phase == OVER:
        waiting = _WAITING.get(seat)
        if waiting is None:
            waiting = _WAITING[seat] = {"seat": seat, "can_undo": False, "legal": []}
        return waiting
    return {"seat": seat, "can_undo": can_undo(game), "legal": legal_actions(game)}


def view(game: Game, seat: int | None = None) -> dict[str, Any]:
    """The whole view for a seat (or a spectator, None)."""
    return {**public_view(game), **seat_extras(game, seat)}

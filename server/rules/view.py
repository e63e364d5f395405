"""What a seat or a spectator may see (R-HIDDEN): everything public, the deck as a count."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .data import BASE_STEPS, CARD_VIEWS, CELL_NAMES, INGREDIENTS, RULES_VERSION, UPGRADES
from .engine import can_undo
from .legal import legal_actions
from .options import GameOptions
from .scoring import score
from .seatview import GameView, SeatExtras
from .shapes import CardView, MoveView, PlayerView, PublicView
from .state import OVER, Game, Player


def _ingredients(counts: tuple[int, ...]) -> dict[str, int]:
    return {INGREDIENTS[i]: c for i, c in enumerate(counts)}


# A player's view, part by part: its key, how to copy the state it is made from (kept to
# tell next time whether it changed), how to build it. The order is the view's key order.
_PARTS: tuple[tuple[str, Callable[[Any], Any], Callable[[Any], Any]], ...] = (
    ("meeples", list.copy, lambda meeples: [CELL_NAMES[c] for c in meeples]),
    ("tabs", lambda tabs: [t[:] for t in tabs],
     lambda tabs: [[CARD_VIEWS[c] for c in tab] for tab in tabs]),
    ("cups", lambda cups: [c[:] for c in cups],
     lambda cups: [[INGREDIENTS[i] for i in cup] for cup in cups]),
    ("completed", list.copy, lambda cards: [CARD_VIEWS[c] for c in cards]),
    ("penalties", list.copy, lambda cards: [CARD_VIEWS[c] for c in cards]),
    ("rush", int, int),
    ("upgrades", list.copy, lambda upgrades: {name: upgrades[i]
                                              for i, name in enumerate(UPGRADES)}),
    ("turns", int, int),
)
_NO_STATE = (None,) * len(_PARTS)

# A player's state as last viewed (a copy of each part, in _PARTS's order) and that view.
Viewed = tuple[tuple[Any, ...], PlayerView]


def _state(p: Player) -> tuple[Any, ...]:
    """The player's parts, in _PARTS's order (not copies)."""
    return (p.meeples, p.tabs, p.cups, p.completed, p.penalties, p.rush, p.upgrades, p.turns)


def _player(seat: int, p: Player, last: Viewed | None) -> Viewed:
    """The view of a player whose view was `last` (None: the first): each part whose state
    did not change is last's very object (a diff skips it at once), the others are built."""
    # (Not typing.cast: two calls per player view made, for nothing at run time.)
    was, shown = last if last is not None else (_NO_STATE, None)
    old: dict[str, Any] | None = shown  # type: ignore[assignment]
    view: dict[str, Any] = {"seat": seat}
    kept = []
    for (name, copy, build), now, then in zip(_PARTS, _state(p), was, strict=True):
        if old is not None and now == then:
            kept.append(then)
            view[name] = old[name]
        else:
            now = copy(now)
            kept.append(now)
            view[name] = build(now)
    scored = score(p)
    view["score"] = old["score"] if old is not None and scored == old["score"] else scored
    return tuple(kept), view  # type: ignore[return-value]  # built to PlayerView's keys


def _players(game: Game, cache: dict[object, Any]) -> list[PlayerView]:
    views = []
    for seat, player in enumerate(game.players):
        last: Viewed | None = cache.get(seat)
        if last is None or _state(player) != last[0]:
            last = cache[seat] = _player(seat, player, last)
        views.append(last[1])
    return views


def _cards(cards: tuple[int, ...]) -> list[CardView]:
    return [CARD_VIEWS[c] for c in cards]


def _move(move: tuple[int | None, int, tuple[int, ...]]) -> MoveView:
    moving, steps, path = move
    return {
        "meeple": moving,
        "steps": steps,
        "free_steps_left": max(0, BASE_STEPS - steps),
        "path": [CELL_NAMES[c] for c in path],
    }


def _part(cache: dict[object, tuple[Any, Any]], name: str, state: Any,
          build: Callable[[Any], Any]) -> Any:
    """The view of a part of the game made from `state` (an immutable copy): the same
    object as last time if `state` is unchanged."""
    last = cache.get(name)
    if last is not None and (last[0] is state or last[0] == state):  # (the options: same)
        return last[1]
    view = build(state)
    cache[name] = (state, view)
    return view


def public_view(game: Game) -> PublicView:
    """The part of every view that is the same for all viewers.

    Read-only: each part whose state did not change since the last call (a player, the
    supply, the discard pile, ...) is the very same object as in the view returned then,
    so a diff between the two skips it at once."""
    cache = game.view_cache
    if cache is None:
        cache = game.view_cache = {}
    view: PublicView = {
        "rules_version": RULES_VERSION,
        "players_count": game.n,
        "options": _part(cache, "options", game.options, GameOptions.to_dict),
        "phase": game.phase,
        "current": game.current,
        "start": game.start,
        "turn": game.turn,
        "closed": game.closed,
        "close_reason": game.close_reason,
        "deck": len(game.deck),
        "supply": _part(cache, "supply", tuple(game.supply), _ingredients),
        "rush_supply": game.rush_supply,
        "discard": _part(cache, "discard", tuple(game.discard), _cards),
        "set_aside": _part(cache, "set_aside", tuple(game.set_aside), _cards),
        "pending": _part(cache, "pending", tuple(game.pending), list),
        "players": _players(game, cache),
        "move": _part(cache, "move", (game.moving, game.steps, tuple(game.path)), _move),
        "hand": _part(cache, "hand", tuple(game.hand), _ingredients),
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
_WAITING: dict[int | None, SeatExtras] = {}


def seat_extras(game: Game, seat: int | None) -> SeatExtras:
    """The part of a view that depends on who looks: their seat, their legal actions.
    Read-only (a waiting seat's is shared)."""
    if seat is None or seat != game.current or game.phase == OVER:
        waiting = _WAITING.get(seat)
        if waiting is None:
            waiting = _WAITING[seat] = {"seat": seat, "can_undo": False, "legal": []}
        return waiting
    return {"seat": seat, "can_undo": can_undo(game), "legal": legal_actions(game)}


def view(game: Game, seat: int | None = None) -> GameView:
    """The whole view for a seat (or a spectator, None)."""
    return {**public_view(game), **seat_extras(game, seat)}

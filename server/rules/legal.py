"""Every legal action for the seat to act, complete: anything not listed is refused.

A phase's list is its action types' `legal` in their declared order (actions/, one module
per type; the order is part of the rules: seeded games and random bots depend on it), the
types listed per held ingredient (`each="held"`: pour, return) going over the hand together.
Results are cached on the game per version, so asking twice (a client, then apply) is free.
An action from elsewhere is found here by its key (actions.action_key).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .actiontype import KEY_OF, Key
from .registry import ACTIONS
from .state import PHASES, Game

if TYPE_CHECKING:
    from .action import Action

Listing = Callable[[Game], list["Action"]]


def _listing(phase: str) -> Listing:
    """The function that lists `phase`'s legal actions, made once from the declarations:
    straight calls of each type's `legal` in order, written out as dataclasses writes an
    __init__ (a loop over the types instead cost a game 3.5% more instructions)."""
    kinds = sorted((a for a in ACTIONS.values() if phase in a.phases and a.legal is not None),
                   key=lambda a: a.order)
    names: dict[str, Any] = {}
    lines = ["def listing(game):", "    out = []"]
    held = False
    for i, kind in enumerate(kinds):
        assert kind.legal is not None
        names[f"legal_{i}"] = kind.legal
        if kind.each is None:
            held = False
            lines.append(f"    legal_{i}(game, out)")
            continue
        if not held:  # the first of a run of types listed per held ingredient
            held = True
            lines += ["    for ingredient, count in enumerate(game.hand):",
                      "        if count:"]
        lines.append(f"            legal_{i}(game, ingredient, out)")
    lines.append("    return out")
    exec("\n".join(lines), names)  # noqa: S102 - our own text, made from the declarations
    listing: Listing = names["listing"]
    return listing


_LISTINGS: dict[str, Listing] = {phase: _listing(phase) for phase in PHASES}


def _cached(game: Game) -> list[Action]:
    cache = game.legal_cache
    if cache is None or cache[0] != game.version:
        listed = _LISTINGS[game.phase](game)
        game.legal_cache = (game.version, listed)
        return listed
    # What the line above stored (not typing.cast: a call per look-up).
    cached: list[Action] = cache[1]  # type: ignore[assignment]
    return cached


def legal_index(game: Game) -> dict[Key, Action]:
    """Legal actions of the seat to act, keyed by their identity (see actions.action_key)."""
    return {KEY_OF[id(action)]: action for action in _cached(game)}


def listed_key(game: Game, action: Action) -> Key | None:
    """The key of `action` if it is one of the dicts legal_actions lists now."""
    key = KEY_OF.get(id(action))
    if key is None:
        return None
    for listed in _cached(game):
        if listed is action:
            return key
    return None


def legal_actions(game: Game, seat: int | None = None) -> list[Action]:
    """The legal actions for `seat` (default: the seat to act); empty if it is not its turn.

    The dicts are shared by every game: treat them as read-only.
    """
    if seat is not None and seat != game.current:
        return []
    return _cached(game)[:]

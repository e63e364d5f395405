"""Game state <-> a versioned JSON-compatible dict. Loading refuses a corrupt state."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import TYPE_CHECKING, Any

from .data import RULES_VERSION
from .errors import CorruptState
from .invariants import check_invariants
from .options import GameOptions
from .state import Game, Player, TurnStart

if TYPE_CHECKING:
    from .action import Action

FORMAT = 1


def _plain(value: Any) -> Any:
    """A copy of a JSON-compatible value whose lists are new (dicts and scalars shared)."""
    return [_plain(v) for v in value] if isinstance(value, list) else value


def _player_dict(p: Player) -> dict[str, Any]:
    return {f.name: _plain(getattr(p, f.name)) for f in fields(p)}


def _player(d: dict[str, Any]) -> Player:
    if set(d) != {f.name for f in fields(Player)}:
        raise CorruptState("player fields do not match the format")
    return Player(**{k: _plain(v) for k, v in d.items()})


def _turn_start_dict(ts: TurnStart | None) -> dict[str, Any] | None:
    if ts is None:
        return None
    return {f.name: _encoder(f.name)(getattr(ts, f.name)) for f in fields(TurnStart)}


def _turn_start(d: dict[str, Any] | None) -> TurnStart | None:
    if d is None:
        return None
    return TurnStart(**{f.name: _decoder(f.name)(d[f.name]) for f in fields(TurnStart)})


def _log(log: list[Action]) -> list[Action]:
    return [a.copy() for a in log]


# (write, read) for the fields that are not plain JSON values, by name (a turn start's
# `player` too); every other field of Game is written and read as it is. Driven by the
# fields, so a new one is stored without an edit here (tests/rules/test_state_fields.py).
_CODECS: dict[str, tuple[Callable[[Any], Any], Callable[[Any], Any]]] = {
    "options": (GameOptions.to_dict, GameOptions.from_dict),
    "players": (lambda ps: [_player_dict(p) for p in ps], lambda ps: [_player(p) for p in ps]),
    "player": (_player_dict, _player),
    "turn_log": (_log, _log),
    "turn_start": (_turn_start_dict, _turn_start),
}


def _encoder(name: str) -> Callable[[Any], Any]:
    return _CODECS[name][0] if name in _CODECS else _plain


def _decoder(name: str) -> Callable[[Any], Any]:
    return _CODECS[name][1] if name in _CODECS else _plain


def stored_fields(cls: type[Game]) -> tuple[str, ...]:
    """Every field of a game but the caches (compare=False), which are rebuilt."""
    return tuple(f.name for f in fields(cls) if f.compare)


def to_dict(game: Game) -> dict[str, Any]:
    """Everything, the secret deck order included: for storage, never for a client."""
    state: dict[str, Any] = {"format": FORMAT, "rules_version": RULES_VERSION}
    for name in stored_fields(type(game)):
        state[name] = _encoder(name)(getattr(game, name))
    return state


def from_dict(d: dict[str, Any]) -> Game:
    """Load a state written by to_dict; raise CorruptState if it is not a sound game."""
    try:
        if d.get("format") != FORMAT:
            raise CorruptState(f"unknown state format {d.get('format')!r}")
        if d.get("rules_version") != RULES_VERSION:
            raise CorruptState(f"written by rules version {d.get('rules_version')!r}")
        game = Game(**{name: _decoder(name)(d[name]) for name in stored_fields(Game)})
        if len(game.supply) != 8 or len(game.hand) != 8:
            raise CorruptState("supply and hand have one count per ingredient")
        if game.options.players != len(game.players):
            raise CorruptState("player count does not match the options")
        check_invariants(game)
    except CorruptState:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise CorruptState(f"malformed state: {exc!r}") from exc
    return game

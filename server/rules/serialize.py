"""Game state <-> a versioned JSON-compatible dict. Loading refuses a corrupt state."""

from __future__ import annotations

from typing import Any

from .data import RULES_VERSION
from .errors import CorruptState
from .invariants import check_invariants
from .options import GameOptions
from .state import Game, Player, TurnStart

FORMAT = 1
_PLAYER_FIELDS = ("meeples", "tabs", "cups", "completed", "penalties", "rush", "upgrades", "turns")


def _player_dict(p: Player) -> dict[str, Any]:
    return {
        "meeples": p.meeples[:],
        "tabs": [t[:] for t in p.tabs],
        "cups": [c[:] for c in p.cups],
        "completed": p.completed[:],
        "penalties": p.penalties[:],
        "rush": p.rush,
        "upgrades": p.upgrades[:],
        "turns": p.turns,
    }


def _player(d: dict[str, Any]) -> Player:
    if set(d) != set(_PLAYER_FIELDS):
        raise CorruptState("player fields do not match the format")
    return Player(**{k: d[k] for k in _PLAYER_FIELDS}).clone()


def to_dict(game: Game) -> dict[str, Any]:
    """Everything, the secret deck order included: for storage, never for a client."""
    ts = game.turn_start
    return {
        "format": FORMAT,
        "rules_version": RULES_VERSION,
        "seed": game.seed,
        "options": game.options.to_dict(),
        "players": [_player_dict(p) for p in game.players],
        "deck": game.deck[:],
        "set_aside": game.set_aside[:],
        "discard": game.discard[:],
        "supply": game.supply[:],
        "rush_supply": game.rush_supply,
        "start": game.start,
        "current": game.current,
        "phase": game.phase,
        "pending": game.pending[:],
        "closed": game.closed,
        "close_reason": game.close_reason,
        "turn": game.turn,
        "hand": game.hand[:],
        "moving": game.moving,
        "steps": game.steps,
        "path": game.path[:],
        "served": game.served,
        "upgraded": game.upgraded,
        "turn_log": [dict(a) for a in game.turn_log],
        "turn_start": None if ts is None else {
            "player": _player_dict(ts.player),
            "supply": ts.supply[:],
            "rush_supply": ts.rush_supply,
            "discard": ts.discard[:],
            "phase": ts.phase,
        },
        "version": game.version,
        "result": game.result,
    }


def from_dict(d: dict[str, Any]) -> Game:
    """Load a state written by to_dict; raise CorruptState if it is not a sound game."""
    try:
        if d.get("format") != FORMAT:
            raise CorruptState(f"unknown state format {d.get('format')!r}")
        if d.get("rules_version") != RULES_VERSION:
            raise CorruptState(f"written by rules version {d.get('rules_version')!r}")
        ts = d["turn_start"]
        game = Game(
            seed=d["seed"],
            players=[_player(p) for p in d["players"]],
            options=GameOptions.from_dict(d["options"]),
            deck=list(d["deck"]),
            set_aside=list(d["set_aside"]),
            discard=list(d["discard"]),
            supply=list(d["supply"]),
            rush_supply=d["rush_supply"],
            start=d["start"],
            current=d["current"],
            phase=d["phase"],
            pending=list(d["pending"]),
            closed=d["closed"],
            close_reason=d["close_reason"],
            turn=d["turn"],
            hand=list(d["hand"]),
            moving=d["moving"],
            steps=d["steps"],
            path=list(d["path"]),
            served=d["served"],
            upgraded=d["upgraded"],
            turn_log=[dict(a) for a in d["turn_log"]],
            turn_start=None if ts is None else TurnStart(
                _player(ts["player"]), list(ts["supply"]), ts["rush_supply"],
                list(ts["discard"]), ts["phase"],
            ),
            version=d["version"],
            result=d["result"],
        )
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

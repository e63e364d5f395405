"""The values of the rows the journal writes, built here only: the store's statements and
the SQLite writer's short way (server.db.sqlite_short) both insert exactly these, so the
two cannot drift apart. Plain dicts keyed by column name, not yet bound."""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from .models import ABANDONED, FINISHED, NAME, PLAYING, WAITING
from .records import ActionRecord, FinishedGame, NewRoom, SeatRecord


def name_key(name: str) -> str:
    """How player names are matched when filtering the game list (case-insensitive)."""
    return name.strip().casefold()[:NAME]


def plain_json(value: Any) -> Any:
    """A value as it comes back from a JSON column."""
    return json.loads(json.dumps(value))


def room_values(room: NewRoom, owner_epoch: int = 0) -> dict[str, Any]:
    return {"code": room.code, "options": room.options, "seed": room.seed,
            "rules_version": room.rules_version, "status": WAITING,
            "host_token_hash": room.host_token_hash, "created_at": room.created_at,
            "owner_epoch": owner_epoch}


def seat_values(room_id: int, seats: Iterable[SeatRecord]) -> list[dict[str, Any]]:
    return [{"room_id": room_id, "seat": s.seat, "name": s.name, "bot": s.bot,
             "token_hash": s.token_hash, "account_id": s.account_id} for s in seats]


def talk_values(room_id: int, item: dict[str, Any], at: datetime) -> dict[str, Any]:
    """A talk item's row (n = 0: the clock checkpoint, replaced in place)."""
    return {"room_id": room_id, "n": int(item["n"]), "kind": str(item.get("kind", "chat")),
            "data": item, "created_at": at}


def start_values(options: dict[str, Any], seed: int, started_at: datetime) -> dict[str, Any]:
    """What a room's row becomes when its game starts (from WAITING only)."""
    return {"status": PLAYING, "options": options, "seed": seed, "started_at": started_at}


def journal_values(room_id: int, a: ActionRecord) -> dict[str, Any]:
    return {"room_id": room_id, "seq": a.seq, "seat": a.seat, "action": a.action,
            "created_at": a.created_at}


def game_values(game: FinishedGame) -> dict[str, Any]:
    """The `games` row of a finished game (ValueError if its result does not fit it)."""
    result = game.result
    if not len(game.players) == len(result["scores"]) == len(result["places"]):
        raise ValueError("one player per score and per place")
    return {"room_code": game.room_code, "seed": game.seed, "options": game.options,
            "rules_version": game.rules_version,
            "actions": [[seat, action] for seat, action in game.actions],
            "action_count": len(game.actions), "turns": max(result.get("turns") or [0]),
            "end_reason": result.get("reason"), "result": result,
            "started_at": game.started_at, "ended_at": game.ended_at,
            "talk": plain_json(list(game.talk))}


def player_values(game_id: int, game: FinishedGame) -> list[dict[str, Any]]:
    scores, places = game.result["scores"], game.result["places"]
    winners = set(game.result.get("winners", ()))
    return [
        {"game_id": game_id, "seat": p.seat, "name": p.name, "name_key": name_key(p.name),
         "bot": p.bot, "stand_in": p.stand_in, "place": places[p.seat],
         "winner": p.seat in winners, "total": scores[p.seat]["total"],
         "orders": scores[p.seat]["orders"], "upgrades": scores[p.seat]["upgrades"],
         "penalties": scores[p.seat]["penalties"], "rush": scores[p.seat]["rush"],
         "tiles": list(scores[p.seat]["tiles"]), "account_id": p.account_id}
        for p in game.players
    ]


def finished_status(game: FinishedGame) -> str:
    """A finished game's room status: ABANDONED for a game kept with its standings when its
    room expired (never put on show again), FINISHED otherwise."""
    return ABANDONED if game.result.get("reason") == ABANDONED else FINISHED

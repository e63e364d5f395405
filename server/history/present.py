"""Plain JSON for the history API and pages, built from the store's records."""

from __future__ import annotations

from typing import Any

from server.db.records import GameDetail, GamePage, GameSummary, PlayerResult, bot_name
from server.rooms.codes import display

from .outcome import is_abandoned
from .replay import replay_steps


def level_named(p: PlayerResult) -> bool:
    """A bot seat stored under its level's name only ("greedy bot"): viewers name it by its
    seat letter instead (static/js/core/names.js), as the live table does, so two bots differ."""
    return p.bot is not None and p.name == bot_name(p.bot)


def player_json(p: PlayerResult) -> dict[str, Any]:
    return {
        "seat": p.seat, "name": p.name, "bot": p.bot, "level_named": level_named(p),
        "stand_in": p.stand_in, "profile": p.profile,
        "place": p.place, "winner": p.winner,
        "total": p.total, "orders": p.orders, "upgrades": p.upgrades,
        "penalties": p.penalties, "rush": p.rush, "tiles": list(p.tiles),
    }


def summary_json(s: GameSummary) -> dict[str, Any]:
    return {
        "id": s.id,
        "room_code": s.room_code,
        "started_at": s.started_at.isoformat(),
        "ended_at": s.ended_at.isoformat(),
        "duration": max(0, round((s.ended_at - s.started_at).total_seconds())),
        "end_reason": s.end_reason,
        "abandoned": is_abandoned(s.end_reason, s.players),
        "turns": s.turns,
        "action_count": s.action_count,
        "players": [player_json(p) for p in s.players],
        "url": f"/games/{s.id}",
    }


def page_json(page: GamePage) -> dict[str, Any]:
    return {
        "items": [summary_json(s) for s in page.items],
        "total": page.total,
        "page": page.page,
        "per_page": page.per_page,
        "pages": max(1, -(-page.total // page.per_page)),
    }


def detail_json(game: GameDetail) -> dict[str, Any]:
    return {
        **summary_json(game.summary),
        "seed": game.seed,
        "options": game.options,
        "rules_version": game.rules_version,
        "actions": [[seat, action] for seat, action in game.actions],
        "result": game.result,
        "talk": list(game.talk),
    }


def room_info(game: GameDetail) -> dict[str, Any]:
    """The `room` part of a table VIEW, synthesized for a stored game (nobody is there)."""
    s = game.summary
    return {
        "code": display(s.room_code),
        "status": "finished",
        "options": game.options,
        "host_seat": None,
        "seats": [
            {"seat": p.seat, "name": None if level_named(p) else p.name or None,
             "connected": False, "bot": p.bot}
            for p in s.players
        ],
        "spectators": 0,
    }


def replay_json(game: GameDetail) -> dict[str, Any]:
    """Everything the replay viewer needs: the room, the dealt view and every step's patch.

    The browser rebuilds the VIEW of step i by applying steps 1..i to `initial`; the
    engine did the work here, so no rule runs in the browser."""
    initial, steps = replay_steps(game.seed, game.options, game.actions)
    return {
        "game": summary_json(game.summary),
        "room": room_info(game),
        "you": {"seat": None, "role": "spectator"},
        "initial": initial,
        "steps": [step.to_json() for step in steps],
        "turns": steps[-1].turn if steps else 0,
        "export_url": f"/api/games/{game.summary.id}/export",
        "talk": list(game.talk),
    }

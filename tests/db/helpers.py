"""Builders for test rooms and a real finished game played by the rules engine."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.accounts.names import name_key
from server.db.models import Account, utcnow
from server.db.records import FinishedGame, NewRoom, SeatRecord
from server.db.store import hash_token
from server.rules import RULES_VERSION, apply, legal_actions, new_game

NAMES = ("Ada", "Bram", "Chloé", "Dev")


def seats(n: int, bots: tuple[int, ...] = ()) -> tuple[SeatRecord, ...]:
    return tuple(
        SeatRecord(i, NAMES[i], "greedy" if i in bots else None,
                   None if i in bots else hash_token(f"seat-{i}"))
        for i in range(n)
    )


def new_room(code: str, at: datetime, players: int = 3, seed: int = 7) -> NewRoom:
    return NewRoom(
        code=code,
        options={"players": players, "starter_orders": False, "starting_player": None,
                 "public": True},
        seed=seed, rules_version=RULES_VERSION, host_token_hash=hash_token(f"host-{code}"),
        created_at=at, seats=seats(players),
    )


def play(seed: int, players: int) -> tuple[list[tuple[int, dict[str, Any]]], dict[str, Any]]:
    """A whole game of random legal actions: the (seat, action) list and the result."""
    game = new_game(seed, players)
    rng = random.Random(seed)
    actions: list[tuple[int, dict[str, Any]]] = []
    while game.phase != "over":
        action = rng.choice(legal_actions(game))
        actions.append((game.current, action))
        apply(game, action, game.current)
    return actions, game.result


def replay(seed: int, players: int, actions: Any) -> dict[str, Any]:
    game = new_game(seed, players)
    for seat, action in actions:
        apply(game, action, seat)
    return game.result


def finished(room: NewRoom, started: datetime, ended: datetime,
             names: tuple[str, ...] | None = None) -> FinishedGame:
    players = room.options["players"]
    actions, result = play(room.seed, players)
    roster = room.seats if names is None else tuple(
        SeatRecord(i, name) for i, name in enumerate(names)
    )
    return FinishedGame(
        room_code=room.code, seed=room.seed, options=room.options,
        rules_version=room.rules_version, players=roster, actions=tuple(actions),
        result=result, started_at=started, ended_at=ended,
    )


Sessions = async_sessionmaker[AsyncSession]


async def accounts(sessions: Sessions, *names: str) -> list[int]:
    async with sessions.begin() as s:
        rows = [Account(name=n, name_key=name_key(n), created_at=utcnow()) for n in names]
        s.add_all(rows)
        await s.flush()
        return [a.id for a in rows]


def rated_game(code: str, clock: Callable[[], datetime],
               roster: list[tuple[int | None, str | None]],
               places: list[int], **options: Any) -> FinishedGame:
    """A real finished game of len(roster) players; roster: (account id, bot level) per
    seat; `places` replaces the engine's standings (1 = first; equal places tie)."""
    room = new_room(code, clock(), players=len(roster), seed=len(code) + sum(places))
    played = finished(room, clock(), clock())
    seats = tuple(SeatRecord(i, f"P{i}", bot, None, None, account)
                  for i, (account, bot) in enumerate(roster))
    result = {**played.result, "places": places,
              "winners": [i for i, p in enumerate(places) if p == 1]}
    return replace(played, players=seats, result=result,
                   options={**played.options, **options})

"""Stored games for tests and benchmarks: a greedy game of a realistic length, storing
finished games through the store function the journal uses, and reading a stored game by
the code of the room it was played in (tests look games up by room; the server looks them
up by id, server.db.store.get_game)."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime, timedelta

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from server.bots import greedy
from server.bots.budget import Budget
from server.db import store
from server.db.models import Game
from server.db.records import FinishedGame, GameDetail, SeatRecord
from server.db.session import make_engine, session_factory
from server.rules import RULES_VERSION, apply, is_over, new_game, view

T0 = datetime(2026, 12, 5, tzinfo=UTC)


async def game_by_room(session: AsyncSession, room_code: str) -> GameDetail | None:
    game_id = await session.scalar(select(Game.id).where(Game.room_code == room_code))
    return None if game_id is None else await store.get_game(session, game_id)


async def _store(url: str, games: list[FinishedGame]) -> list[int]:
    engine = make_engine(url)
    try:
        async with session_factory(engine).begin() as session:
            return [await store.save_finished_game(session, g) for g in games]
    finally:
        await engine.dispose()


def store_games(url: str, games: list[FinishedGame]) -> list[int]:
    """Store the finished games in the database at `url` (migrated) in one transaction;
    their ids, in order."""
    return asyncio.run(_store(url, games))


def greedy_game(seed: int, players: int) -> FinishedGame:
    """A seeded game that greedy plays in every seat (whole games of a fair human's
    length), as an imported game's record (room code I + the seed)."""
    game = new_game(seed, players, starting_player=0)
    rng = random.Random(seed)
    actions = []
    while not is_over(game):
        seat = game.current
        action = greedy.choose(dict(view(game, seat)), rng, Budget(1.0))
        actions.append((seat, action))
        apply(game, action, seat)
    assert game.result is not None
    return FinishedGame(
        room_code=f"I{seed:07d}", seed=seed, options=game.options.to_dict(),
        rules_version=RULES_VERSION,
        players=tuple(SeatRecord(s, f"P{s + 1}", "greedy") for s in range(players)),
        actions=tuple(actions), result=dict(game.result), started_at=T0,
        ended_at=T0 + timedelta(minutes=20))

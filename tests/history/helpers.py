"""Finished games for the history tests: played by seeded random legal actions (with the
odd undo), stored by tests.stored.store_games (the store function the journal uses)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from server.db.records import FinishedGame, SeatRecord
from server.rules import RULES_VERSION, Game, apply, can_undo, legal_actions, new_game

T0 = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)


@dataclass(frozen=True)
class Played:
    """A game as the test knows it: its record and its final engine state."""

    record: FinishedGame
    final: Game


def play(seed: int, players: int, *, undo_rate: float = 0.05,
         starter_orders: bool = False) -> tuple[list[tuple[int, dict[str, Any]]], Game]:
    game = new_game(seed, players, starter_orders=starter_orders)
    rng = random.Random(seed)
    actions: list[tuple[int, dict[str, Any]]] = []
    while game.phase != "over":
        if can_undo(game) and rng.random() < undo_rate:
            action: dict[str, Any] = {"type": "undo"}
        else:
            action = rng.choice(legal_actions(game))
        actions.append((game.current, action))
        apply(game, action, game.current)
    return actions, game


def played(index: int, seed: int, names: tuple[str, ...], bots: tuple[int, ...] = (),
           starter_orders: bool = False) -> Played:
    players = len(names)
    actions, final = play(seed, players, starter_orders=starter_orders)
    start = T0 + timedelta(hours=index)
    record = FinishedGame(
        room_code=f"HIST{index:04d}".replace("0", "A").replace("1", "B"),
        seed=seed,
        options={"players": players, "starter_orders": starter_orders,
                 "starting_player": None, "public": True},
        rules_version=RULES_VERSION,
        players=tuple(SeatRecord(s, name, "greedy" if s in bots else None)
                      for s, name in enumerate(names)),
        actions=tuple(actions),
        result=final.result,
        started_at=start,
        ended_at=start + timedelta(minutes=20 + index),
    )
    return Played(record, final)


# Oldest first; the list shows them newest first.
GAMES = (
    (1, 11, ("Ada", "Bram")),
    (2, 12, ("Chloé", "Dev", "Ada")),
    (3, 13, ("Bram", "Chloé", "Dev", "Eve"), (3,)),
    (4, 14, ("Dev", "Eve")),
    (5, 15, ("ada", "Bram", "Eve"), (), True),
)


def library() -> list[Played]:
    return [played(*spec) for spec in GAMES]  # type: ignore[arg-type]

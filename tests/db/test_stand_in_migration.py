"""Migration 0005 (game_players.stand_in) keeps every stand-in both ways, on both databases:
going down they wait in the game's options, coming up they are back in their column."""

from __future__ import annotations

import json

import pytest

from server.db.migrate import downgrade_async, upgrade_async

from .test_talk import _exec, _rows


def _options(value: object) -> dict:
    return json.loads(value) if isinstance(value, str) else dict(value)  # type: ignore[arg-type]


@pytest.mark.asyncio
async def test_migration_0005_keeps_stand_ins_both_ways(db_url: str) -> None:
    await upgrade_async(db_url, "0004")
    await _exec(
        db_url,
        "INSERT INTO games (id, room_code, seed, options, rules_version, actions, action_count,"
        " turns, end_reason, result, started_at, ended_at) VALUES (1, 'ZZZZZZZZ', '9',"
        " '{\"players\": 2}', 1, '[]', 0, 5, 'abandoned', '{}', '2026-12-01 05:00:00',"
        " '2026-12-01 05:30:00')",
        *(f"INSERT INTO game_players (game_id, seat, name, name_key, place, winner, total,"
          f" orders, upgrades, penalties, rush, tiles) VALUES (1, {s}, '{n}', '{n.lower()}',"
          f" {s + 1}, false, 0, 0, 0, 0, 0, '[]')" for s, n in ((0, "Ana"), (1, "Bo"))),
    )
    await upgrade_async(db_url)
    assert await _rows(db_url, "SELECT seat, stand_in FROM game_players ORDER BY seat") == [
        (0, None), (1, None)]
    await _exec(db_url, "UPDATE game_players SET stand_in = 'greedy' WHERE seat = 1")
    await downgrade_async(db_url, "0004")
    ((options,),) = await _rows(db_url, "SELECT options FROM games")
    assert _options(options) == {"players": 2, "_stand_ins": {"1": "greedy"}}
    assert await _rows(db_url, "SELECT end_reason FROM games") == [("abandoned",)]
    await upgrade_async(db_url)
    assert await _rows(db_url, "SELECT seat, stand_in FROM game_players ORDER BY seat") == [
        (0, None), (1, "greedy")]
    ((options,),) = await _rows(db_url, "SELECT options FROM games")
    assert _options(options) == {"players": 2}

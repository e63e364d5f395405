"""Migration 0006 (accounts) with data in the tables, both ways, on both databases: the
rooms, seats, games and players stay; going down only the accounts go."""

from __future__ import annotations

import pytest
from db.test_talk import _exec, _rows

from server.db.migrate import downgrade_async, upgrade_async

ROOM = ("INSERT INTO rooms (id, code, options, seed, rules_version, status, host_token_hash,"
        " created_at, owner_epoch) VALUES (1, 'ABCDEFGH', '{\"players\": 2}', '7', 1,"
        " 'waiting', 'h', '2026-12-01 06:00:00', 0)")
GAME = ("INSERT INTO games (id, room_code, seed, options, rules_version, actions, action_count,"
        " turns, end_reason, result, started_at, ended_at) VALUES (1, 'ZZZZZZZZ', '9',"
        " '{\"players\": 2}', 1, '[]', 0, 5, 'deck', '{}', '2026-12-01 05:00:00',"
        " '2026-12-01 05:30:00')")


def _player(seat: int, name: str) -> str:
    return (f"INSERT INTO game_players (game_id, seat, name, name_key, place, winner, total,"
            f" orders, upgrades, penalties, rush, tiles) VALUES (1, {seat}, '{name}',"
            f" '{name.lower()}', {seat + 1}, false, 0, 0, 0, 0, 0, '[]')")


@pytest.mark.asyncio
async def test_migration_0006_adds_accounts_and_keeps_every_seat_and_game_both_ways(
    db_url: str,
) -> None:
    await upgrade_async(db_url, "0005")
    await _exec(db_url, ROOM, "INSERT INTO room_seats (room_id, seat, name) VALUES (1, 0, 'Ana')",
                GAME, _player(0, "Ana"), _player(1, "Bo"))
    await upgrade_async(db_url)
    assert await _rows(db_url, "SELECT seat, name, account_id FROM room_seats") == [
        (0, "Ana", None)]
    await _exec(
        db_url,
        "INSERT INTO accounts (id, name, name_key, created_at, disabled, password_hash)"
        " VALUES (7, 'Ana', 'ana', '2026-12-02 06:00:00', false, 'x')",
        "INSERT INTO passkeys (id, credential_id, account_id, public_key, sign_count,"
        " transports, created_at) VALUES (1, 'cred', 7, '\\x00', 0, '[]',"
        " '2026-12-02 06:00:00')" if "postgres" in db_url else
        "INSERT INTO passkeys (id, credential_id, account_id, public_key, sign_count,"
        " transports, created_at) VALUES (1, 'cred', 7, x'00', 0, '[]', '2026-12-02 06:00:00')",
        "INSERT INTO account_sessions (id, account_id, created_at, last_seen_at, expires_at)"
        " VALUES ('s', 7, '2026-12-02 06:00:00', '2026-12-02 06:00:00', '2026-12-30 06:00:00')",
        "UPDATE room_seats SET account_id = 7",
        "UPDATE game_players SET account_id = 7 WHERE seat = 0",
    )
    assert await _rows(db_url, "SELECT seat, account_id FROM game_players ORDER BY seat") == [
        (0, 7), (1, None)]

    await downgrade_async(db_url, "0005")
    assert await _rows(db_url, "SELECT seat, name FROM room_seats") == [(0, "Ana")]
    assert await _rows(db_url, "SELECT seat, name FROM game_players ORDER BY seat") == [
        (0, "Ana"), (1, "Bo")]

    await upgrade_async(db_url)
    assert await _rows(db_url, "SELECT seat, name, account_id FROM room_seats") == [
        (0, "Ana", None)]
    assert await _rows(db_url, "SELECT count(*) FROM accounts") == [(0,)]


@pytest.mark.asyncio
async def test_deleting_an_account_row_leaves_its_seats_and_games_without_one(
    db_url: str,
) -> None:
    await upgrade_async(db_url)
    await _exec(
        db_url, ROOM, GAME,
        "INSERT INTO accounts (id, name, name_key, created_at, disabled)"
        " VALUES (7, 'Ana', 'ana', '2026-12-02 06:00:00', false)",
        "INSERT INTO room_seats (room_id, seat, name, account_id) VALUES (1, 0, 'Ana', 7)",
        _player(0, "Ana"), "UPDATE game_players SET account_id = 7",
    )
    await _exec(db_url, "DELETE FROM accounts")  # SQLite too: make_engine turns foreign keys on
    assert await _rows(db_url, "SELECT name, account_id FROM room_seats") == [("Ana", None)]
    assert await _rows(db_url, "SELECT name, account_id FROM game_players") == [("Ana", None)]

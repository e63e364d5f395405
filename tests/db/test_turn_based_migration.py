"""Migration 0008 (turn-based play), with data, on both databases: going down, a turn-based
room's mode and clock (and its clock checkpoint's option) wait under stash keys so an older
server plays it on as a real-time room, and the addresses and outbox are dropped (kept
nowhere an older server could show them); coming up, the room is turn-based again."""

from __future__ import annotations

import json

import pytest

from server.db.migrate import downgrade_async, upgrade_async
from server.rooms import RoomOptions

from .test_talk import _exec, _rows

CLOCK = {"turn": 86400, "bank": 259200}
OPTIONS = {"players": 2, "starter_orders": False, "starting_player": 0, "public": False,
           "clock": CLOCK, "mode": "turn_based"}


def _json(value: object) -> dict:
    return json.loads(value) if isinstance(value, str) else dict(value)  # type: ignore[arg-type]


@pytest.mark.asyncio
async def test_migration_0008_keeps_turn_based_rooms_both_ways(db_url: str) -> None:
    await upgrade_async(db_url)
    at = "'2026-12-01 05:00:00'"
    await _exec(
        db_url,
        f"INSERT INTO rooms (id, code, options, seed, rules_version, status, host_token_hash,"
        f" created_at, owner_epoch) VALUES (1, 'TURN0001', '{json.dumps(OPTIONS)}', '7', 1,"
        f" 'playing', 'h', {at}, 0), (2, 'REAL0001', '{{\"players\": 2}}', '8', 1, 'waiting',"
        f" 'h', {at}, 0)",
        f"INSERT INTO room_talk (room_id, n, kind, data, created_at) VALUES (1, 0, 'clock',"
        f" '{json.dumps({'option': CLOCK, 'key': [0, 0], 'turn_ms': 1, 'bank_ms': [2, 3]})}',"
        f" {at})",
        f"INSERT INTO seat_addresses (id, room_code, seat, address, lang, code_tries,"
        f" codes_sent, unsub_key, created_at) VALUES (1, 'TURN0001', 1, 'bo@example.org',"
        f" 'en', 0, 1, 'k', {at})",
        f"INSERT INTO mail_outbox (id, key, kind, room_code, seat, seq, address_id, status,"
        f" attempts, next_at, created_at) VALUES (1, 'turn:TURN0001:0:1', 'turn', 'TURN0001',"
        f" 1, 0, 1, 'pending', 0, {at}, {at})",
    )
    await downgrade_async(db_url, "0005")
    rows = dict(await _rows(db_url, "SELECT code, options FROM rooms"))
    old = _json(rows["TURN0001"])
    assert "mode" not in old and "clock" not in old
    assert old["_turn_based"] == {"mode": "turn_based", "clock": CLOCK}
    assert _json(rows["REAL0001"]) == {"players": 2}
    ((talk,),) = await _rows(db_url, "SELECT data FROM room_talk")
    assert _json(talk)["option"] is None and _json(talk)["_option"] == CLOCK
    RoomOptions.from_dict(old)  # what an older server reads: a real-time room, no clock

    await upgrade_async(db_url)
    rows = dict(await _rows(db_url, "SELECT code, options FROM rooms"))
    assert _json(rows["TURN0001"]) == OPTIONS
    assert RoomOptions.from_dict(_json(rows["TURN0001"])).turn_based
    ((talk,),) = await _rows(db_url, "SELECT data FROM room_talk")
    assert _json(talk)["option"] == CLOCK and "_option" not in _json(talk)
    assert await _rows(db_url, "SELECT COUNT(*) FROM seat_addresses") == [(0,)]
    assert await _rows(db_url, "SELECT COUNT(*) FROM mail_outbox") == [(0,)]

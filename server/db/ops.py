"""Journal operations: small JSON objects, written to the database in order, or to the
fallback file while it is unreachable, and replayed from there later.

An operation is built (and so validated as JSON) when the room layer hands it over; the
live write and a replay apply exactly the same decoded object.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import orjson
from sqlalchemy.ext.asyncio import AsyncSession

from server.jsontext import dumps

from . import store
from .records import ActionRecord, FinishedGame, NewRoom, SeatRecord

Op = dict[str, Any]


def encode(op: Op) -> str:
    """Compact JSON on one line (orjson escapes every control character, so a line never
    holds a newline), the same text as the JSON columns."""
    return dumps(op)


def decode(line: str) -> Op:
    op = orjson.loads(line)
    if not isinstance(op, dict) or (op.get("op") not in _APPLY and op.get("op") != "action"):
        raise ValueError(f"not a journal operation: {line[:80]!r}")
    return op


def _seats(seats: Sequence[SeatRecord]) -> list[list[Any]]:
    """[seat, name, bot, token_hash], a fifth item, stand_in, only when there is one or an
    account follows, and a sixth, account_id, only when there is one (so files written
    before stand-ins or accounts were kept read the same)."""
    return [[s.seat, s.name, s.bot, s.token_hash, *_tail(s)] for s in seats]


def _tail(s: SeatRecord) -> list[Any]:
    if s.account_id is not None:
        return [s.stand_in, s.account_id]
    return [s.stand_in] if s.stand_in else []


def _normal(op: Op) -> Op:
    """What the op becomes after a trip through JSON (tuples become lists, and so on)."""
    return decode(encode(op))


def room_created(room: NewRoom) -> Op:
    return _normal({
        "op": "room_created", "code": room.code, "options": room.options, "seed": room.seed,
        "rules_version": room.rules_version, "host": room.host_token_hash,
        "at": room.created_at.isoformat(), "seats": _seats(room.seats),
    })


def seats_changed(code: str, seats: Sequence[SeatRecord], host_seat: int | None = None) -> Op:
    return _normal({
        "op": "seats_changed", "code": code, "seats": _seats(seats), "host_seat": host_seat,
    })


def room_started(code: str, options: dict[str, Any], seed: int, at: datetime) -> Op:
    return _normal({
        "op": "room_started", "code": code, "options": options, "seed": seed,
        "at": at.isoformat(),
    })


def action(record: ActionRecord) -> Op:
    return _normal({
        "op": "action", "code": record.room_code, "seq": record.seq, "seat": record.seat,
        "action": record.action, "at": record.created_at.isoformat(),
    })


def game_finished(game: FinishedGame) -> Op:
    return _normal({
        "op": "game_finished", "code": game.room_code, "seed": game.seed,
        "options": game.options, "rules_version": game.rules_version,
        "players": _seats(game.players), "actions": [list(a) for a in game.actions],
        "result": game.result, "started_at": game.started_at.isoformat(),
        "ended_at": game.ended_at.isoformat(), "talk": list(game.talk),
    })


def talk(code: str, item: dict[str, Any], at: datetime) -> Op:
    """One talk item of a room (chat, timeout; n = 0: the clock checkpoint, replaced)."""
    return _normal({"op": "talk", "code": code, "item": item, "at": at.isoformat()})


def room_abandoned(code: str, at: datetime) -> Op:
    return _normal({"op": "room_abandoned", "code": code, "at": at.isoformat()})


async def apply_ops(
    session: AsyncSession, ops: Sequence[Op], *, replaying: bool,
    open_rooms: dict[str, int] | None = None,
) -> None:
    """Apply operations in order inside the caller's transaction; runs of actions are
    inserted with one statement. `open_rooms` caches the ids of unfinished rooms across
    calls (see store.append_actions); any other operation on a room but talk (which
    changes no room's status) drops it from there."""
    await _check_fences(session, ops)
    run: list[ActionRecord] = []
    for op in ops:
        if op["op"] == "action":
            run.append(action_record(op))
            continue
        if run:
            await store.append_actions(session, run, replaying=replaying, open_rooms=open_rooms)
            run = []
        if open_rooms is not None and op["op"] != "talk":
            open_rooms.pop(op["code"], None)
        await _APPLY[op["op"]](session, op)
    if run:
        await store.append_actions(session, run, replaying=replaying, open_rooms=open_rooms)


async def _check_fences(session: AsyncSession, ops: Sequence[Op]) -> None:
    """Operations stamped with their owner's epoch (cluster mode) are written only while
    that epoch is still the room's; a room created in this batch starts at its epoch."""
    created = {op["code"] for op in ops if op["op"] == "room_created"}
    epochs = {op["code"]: op["epoch"] for op in ops if "epoch" in op and op["code"] not in created}
    if epochs:
        await store.check_epochs(session, epochs)


def _time(text: str) -> datetime:
    return datetime.fromisoformat(text)


# --- the records an operation stands for (the store's and the SQLite short way's input) ---


def action_record(op: Op) -> ActionRecord:
    return ActionRecord(op["code"], op["seq"], op["seat"], op["action"], _time(op["at"]))


def new_room(op: Op) -> NewRoom:
    return NewRoom(
        code=op["code"], options=op["options"], seed=op["seed"],
        rules_version=op["rules_version"], host_token_hash=op["host"],
        created_at=_time(op["at"]), seats=seat_records(op["seats"]),
    )


def seat_records(rows: list[list[Any]]) -> tuple[SeatRecord, ...]:
    return tuple(SeatRecord(*row) for row in rows)


def started_at(op: Op) -> datetime:
    return _time(op["at"])


def talk_at(op: Op) -> datetime:
    return _time(op["at"])


def finished_game(op: Op) -> FinishedGame:
    return FinishedGame(
        room_code=op["code"], seed=op["seed"], options=op["options"],
        rules_version=op["rules_version"], players=seat_records(op["players"]),
        actions=tuple((seat, a) for seat, a in op["actions"]), result=op["result"],
        started_at=_time(op["started_at"]), ended_at=_time(op["ended_at"]),
        talk=tuple(op.get("talk", ())),
    )


# --- applying them through the store ------------------------------------------------------


async def _room_created(session: AsyncSession, op: Op) -> None:
    await store.create_room(session, new_room(op), owner_epoch=op.get("epoch", 0))


async def _seats_changed(session: AsyncSession, op: Op) -> None:
    await store.set_seats(
        session, op["code"], seat_records(op["seats"]), host_seat=op.get("host_seat")
    )


async def _room_started(session: AsyncSession, op: Op) -> None:
    await store.start_room(
        session, op["code"], options=op["options"], seed=op["seed"], started_at=started_at(op)
    )


async def _game_finished(session: AsyncSession, op: Op) -> None:
    await store.save_finished_game(session, finished_game(op))


async def _talk(session: AsyncSession, op: Op) -> None:
    await store.append_talk(session, op["code"], op["item"], _time(op["at"]))


async def _room_abandoned(session: AsyncSession, op: Op) -> None:
    await store.abandon_room(session, op["code"], _time(op["at"]))


_APPLY = {
    "room_created": _room_created,
    "seats_changed": _seats_changed,
    "room_started": _room_started,
    "game_finished": _game_finished,
    "room_abandoned": _room_abandoned,
    "talk": _talk,
}

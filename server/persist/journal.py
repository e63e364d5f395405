"""RoomJournal: the rooms' Journal protocol on top of the database journal.

Every hook hands one operation to server.db's Journal, which writes them in order with
group commit (or to its fsynced fallback file while the database is down) and returns
once the operation is durable. Only tokens' sha256 hashes are ever written.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import datetime
from typing import Any

from server.db import ops
from server.db.journal import Journal as DbJournal
from server.db.models import utcnow
from server.db.records import FinishedGame, NewRoom, SeatRecord, bot_name
from server.history.outcome import abandoned_result
from server.rooms import PLAYING, Room
from server.rules import RULES_VERSION, Action


def seat_records(room: Room) -> tuple[SeatRecord, ...]:
    """The filled seats as stored: a bot seat is named after its level."""
    return tuple(
        SeatRecord(s.index, s.name or bot_name(s.bot or "?"), s.bot, s.token_hash,
                   account_id=s.account_id)
        for s in room.seats if s.filled
    )


def player_records(room: Room) -> tuple[SeatRecord, ...]:
    """Every seat of a finished game (a seat kicked and never refilled keeps a plain name),
    with the bot level standing in for each player who had left."""
    filled = {r.seat: replace(r, stand_in=room.seats[r.seat].stand_in)
              for r in seat_records(room)}
    return tuple(filled.get(i, SeatRecord(i, f"Seat {i + 1}")) for i in range(len(room.seats)))


class RoomJournal:
    def __init__(self, db: DbJournal, clock: Callable[[], datetime] = utcnow) -> None:
        self.db = db
        self.clock = clock
        # When each playing room's game started (wall clock), for the finished game's record.
        self.started_at: dict[str, datetime] = {}

    async def room_created(self, room: Room) -> None:
        await self.db.room_created(NewRoom(
            code=room.code, options=room.options.to_dict(), seed=room.seed,
            rules_version=RULES_VERSION, host_token_hash=room.host_token_hash,
            created_at=self.clock(), seats=seat_records(room),
        ))

    async def seats_changed(self, room: Room) -> None:
        await self.db.seats_changed(room.code, seat_records(room), room.host_seat)

    async def started(self, room: Room) -> None:
        at = self.clock()
        await self.db.room_started(room.code, options=room.options.to_dict(), seed=room.seed,
                                   at=at)
        self.started_at[room.code] = at

    async def accepted(self, room: Room, seq: int, action: Action, seat: int) -> None:
        await self.db.action_accepted(room.code, seq, seat, action)

    async def finished(self, room: Room) -> None:
        if room.game is None or room.game.result is None:
            raise ValueError(f"room {room.code} has no result to save")
        await self.db.game_finished(self._record(room, room.game.result))

    def _record(self, room: Room, result: Mapping[str, Any]) -> FinishedGame:
        ended = self.clock()
        return FinishedGame(
            room_code=room.code, seed=room.seed, options=room.options.to_dict(),
            rules_version=RULES_VERSION, players=player_records(room),
            actions=tuple(room.actions), result=dict(result),
            started_at=self.started_at.pop(room.code, ended), ended_at=ended,
            talk=tuple(room.talk.items),
        )

    async def talk(self, room: Room, item: dict[str, Any]) -> None:
        """A chat message, a timeout, or the clock checkpoint (item n = 0)."""
        # A kind of operation the db journal has no hook for: handed to its writer directly.
        await self.db.submit(ops.talk(room.code, item, self.clock()))

    async def discarded(self, room: Room) -> None:
        """A room closed before anyone played in it (server.rooms.RoomManager.discard): it
        just closes, with no game kept in the history."""
        self.started_at.pop(room.code, None)
        await self.db.room_abandoned(room.code)

    async def abandoned(self, room: Room) -> None:
        """A room expired. A game that was being played is kept in the history, marked
        abandoned with the standings it had (server.history.outcome); a waiting room
        just closes."""
        game = room.game
        if room.status == PLAYING and game is not None:
            result = game.result if game.result is not None else abandoned_result(game)
            await self.db.game_finished(self._record(room, result))
            return
        self.started_at.pop(room.code, None)
        await self.db.room_abandoned(room.code)

"""Turn-based time: a late player and a player away for a while.

- When a turn-based player's time and bank are gone, the seat is *late* (timeouts._late):
  no bot takes over by itself and nothing is lost. Any other player of the table then
  chooses, first come: a stand-in bot plays that turn (`stand_in`), or the game ends,
  recorded as abandoned like an expired room (`RoomManager.abandon_late`, which calls
  `check_late` under the room lock). The late player may still move until one of them has.
- Once per game a player may say they are away for up to AWAY_MAX hours (`go_away`): their
  clock does not run meanwhile (TurnClock.pause).
"""

from __future__ import annotations

from typing import Protocol

from . import timeouts
from .errors import RoomError, forbidden
from .events import StandIn

AWAY_MAX = 7 * 24  # hours


class LateRoom(timeouts.ClockedRoom, Protocol):
    def seat_of(self, token: str) -> int | None: ...


def check_late(room: LateRoom, token: str) -> tuple[int, int]:
    """(the choosing seat, the late seat); call under the lock. Raises RoomError."""
    room.check_open()
    seat = room.seat_of(token)
    if seat is None:
        raise forbidden("only a player of this table can choose")
    clock = room.turn_clock
    if (not room.options.turn_based or clock is None or not clock.late
            or clock.seat is None or room.status != "playing"):
        raise RoomError("not_late", "nobody's time has run out", 409)
    if clock.seat == seat:
        raise forbidden("the late player plays their move or waits for the others' choice")
    return seat, clock.seat


async def stand_in(room: LateRoom, token: str, level: str) -> None:
    """A stand-in bot plays the late player's turn (then the seat is theirs again)."""
    async with room.lock:
        _, late = check_late(room, token)
        event = await _give_stand_in(room, late, level)
    await room.notify([event])


async def stand_in_for(room: LateRoom, seat: int, level: str) -> bool:
    """A tournament's table (server.tournaments): the late seat gets its stand-in at once,
    as if another player had chosen it, so the game never waits on the others' choice.
    False (nothing changes) if the seat is no longer late."""
    async with room.lock:
        clock = room.turn_clock
        if (clock is None or not clock.late or clock.seat != seat
                or room.status != "playing"):
            return False
        event = await _give_stand_in(room, seat, level)
    await room.notify([event])
    return True


async def _give_stand_in(room: LateRoom, seat: int, level: str) -> StandIn:
    """The late `seat` gets its stand-in bot; call under the lock, then notify the event."""
    clock = room.turn_clock
    assert clock is not None
    clock.late = False
    room.set_stand_in(seat, level)
    event: StandIn = {"type": "stand_in", "seat": seat, "level": level}
    room.commit([event])
    await timeouts.save(room)
    return event


async def go_away(room: LateRoom, token: str, hours: int) -> None:
    """The seat's player is away for `hours` (once per game): their clock pauses."""
    async with room.lock:
        room.check_open()
        seat = room.seat_of(token)
        if seat is None:
            raise forbidden("only a player can say they are away")
        clock = room.turn_clock
        if not room.options.turn_based or clock is None or room.status != "playing":
            raise RoomError("not_turn_based",
                            "only a turn-based game on a clock can be paused", 409)
        if clock.away_used[seat]:
            raise RoomError("away_used", "you have been away once in this game already", 409)
        if type(hours) is not int or not 1 <= hours <= AWAY_MAX:
            raise RoomError("malformed", f"away for 1..{AWAY_MAX} hours", 422)
        clock.pause(seat, room.clock(), hours * 3600)
        room.commit([{"type": "away", "seat": seat, "hours": hours}])
        await timeouts.save(room)

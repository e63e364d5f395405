"""The turn clock at a live table: keep it in step with the game, time turns out.

- `tick(room)` runs at every commit (under the lock): it brings the clock to the room's
  turn, runs it only while a person plays that turn, and when a turn that timed out is
  over it gives the seat back to its (connected) player unless the seat is away.
- `ClockKeeper` watches the rooms' deadlines on the room clock. When a turn runs out the
  seat's stand-in bot (TAKEOVER_LEVEL, played by the bots driver) finishes that turn and
  the event `timeout` says so; after AWAY_AFTER timeouts in a row the seat counts as away
  (the stand-in keeps playing its turns) until the player acts or says `back`.
- Each timeout, and the clock at each new turn, is journaled as a talk item, so a restored
  room (after a restart or a failover) resumes from the remaining times it was saved with.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence, Sized
from typing import Any, Protocol

from server.rules import Game, is_over

from .chat import TalkLog
from .errors import RoomError
from .events import Event, Late, Timeout
from .options import RoomOptions
from .seat import Seat
from .turnclock import AWAY_AFTER, ClockOption, Key, TurnClock

log = logging.getLogger(__name__)


class ClockedRoom(Protocol):
    """What the turn clock needs of a room (Room is one)."""

    @property
    def code(self) -> str: ...
    @property
    def game(self) -> Game | None: ...
    @property
    def status(self) -> str: ...
    @property
    def options(self) -> RoomOptions: ...
    @property
    def seats(self) -> Sequence[Seat]: ...
    @property
    def turn_clock(self) -> TurnClock | None: ...
    @property
    def talk(self) -> TalkLog: ...
    @property
    def actions(self) -> Sized: ...
    @property
    def lock(self) -> asyncio.Lock: ...
    @property
    def clock(self) -> Callable[[], float]: ...
    def check_open(self) -> None: ...
    def set_stand_in(self, index: int, level: str | None) -> None: ...
    def set_timeouts(self, index: int, count: int) -> None: ...
    def set_clock_option(self, value: ClockOption | dict[str, int] | None) -> None: ...
    def commit(self, events: Sequence[Event], game_changed: bool = False) -> bool: ...
    async def note_talk(self, item: dict[str, Any], *, required: bool = False) -> None: ...
    async def notify(self, events: Sequence[Event]) -> None: ...


class Rooms(Protocol):
    """What the clock keeper needs of a room manager (RoomManager is one)."""

    @property
    def rooms(self) -> Mapping[str, ClockedRoom]: ...
    @property
    def clock(self) -> Callable[[], float]: ...

TICK_MAX = 0.25  # seconds between looks when no deadline is sooner
TICK_MIN = 0.005
SAVE_TURN_BASED = 600.0  # room-clock seconds between checkpoints of turn-based clocks
FINISHER = "greedy"  # the level that finishes a timed-out turn saved without one (older rows)


def turn_key(room: ClockedRoom) -> Key | None:
    game = room.game
    if game is None or room.status != "playing" or is_over(game):
        return None
    return (game.turn, game.current)


def tick(room: ClockedRoom) -> bool:
    """Bring the room's clock up to date (call under the lock, before a commit). True when
    a new turn began (its clock is then worth saving)."""
    clock = room.turn_clock
    if clock is None:
        return False
    key = turn_key(room)
    before = clock.key
    if key is not None and key != before and before is not None:
        _end_timed_out_turn(room, before[1])
    seat = None if key is None else room.seats[key[1]]
    human = seat is not None and seat.played_by is None
    # A turn-based clock runs whether or not its player is at the table (and a restored one
    # is not held for them: they come by when they have a minute).
    present = seat is not None and (seat.conn is not None or room.options.turn_based)
    return clock.sync(room.clock(), key, human, present=present)


def finishing(room: ClockedRoom, seat: int) -> bool:
    """The seat's turn timed out and its stand-in is finishing it: nothing may take the
    stand-in away before that turn is over (the player's own moves are refused meanwhile)."""
    clock = room.turn_clock
    return clock is not None and clock.spent and clock.seat == seat


def _end_timed_out_turn(room: ClockedRoom, seat_index: int) -> None:
    """A turn is over: a stand-in that only finished a timed-out turn hands the seat back."""
    clock, seat = room.turn_clock, room.seats[seat_index]
    if clock is None or not clock.spent:
        return
    # Turn-based: the stand-in played the late turn only; the player hears of the next one.
    back = seat.conn is not None or room.options.turn_based
    if seat.timeouts < AWAY_AFTER and back and seat.stand_in is not None:
        room.set_stand_in(seat_index, None)


def check_act(room: ClockedRoom, seat: int) -> None:
    """A person's act is refused once their turn's time is up (the stand-in finishes it).
    Call under the lock, before applying it."""
    clock = room.turn_clock
    if clock is None or clock.seat != seat or clock.late:
        return  # late (turn-based): the player may still move until the others choose
    if clock.spent or clock.expired(room.clock()):
        raise RoomError("timed_out", "your time for this turn ran out; a bot finishes it", 409)


def acted(room: ClockedRoom, seat: int) -> None:
    """A person's act was accepted: it ends their run of timeouts (and an away seat's
    stand-in, as `back` does)."""
    target = room.seats[seat]
    if not target.timeouts:  # the common case: nothing to end
        return
    if target.timeouts >= AWAY_AFTER and target.conn is not None:
        room.set_stand_in(seat, None)
    room.set_timeouts(seat, 0)


async def come_back(room: ClockedRoom, seat: int) -> None:
    """The player of an away seat says they are back: the stand-in stops (unless it is
    finishing a turn that timed out)."""
    async with room.lock:
        room.check_open()
        target = room.seats[seat]
        if target.timeouts < AWAY_AFTER:
            return
        room.set_timeouts(seat, 0)
        if target.stand_in is not None and not finishing(room, seat):
            room.set_stand_in(seat, None)
        new_turn = tick(room)
        room.commit([{"type": "back", "seat": seat}])
        if new_turn:
            await save(room)


async def time_out(room: ClockedRoom, level: str) -> bool:
    """Time out the room's turn if its clock has run out; False if it has not (or the
    turn is no longer a person's)."""
    async with room.lock:
        clock = room.turn_clock
        if clock is None or room.status != "playing" or not clock.expired(room.clock()):
            return False
        seat = room.seats[clock.seat] if clock.seat is not None else None
        if seat is None or seat.played_by is not None:
            return False
        event: Late | Timeout
        if room.options.turn_based:
            event = await _late(room, seat)
        else:
            event = await _time_out(room, seat, level)
    await room.notify([event])  # the bots driver; the mail worker tells the others
    return True


async def _time_out(room: ClockedRoom, seat: Seat, level: str) -> Timeout:
    """A real-time turn ran out: the stand-in finishes it."""
    clock = room.turn_clock
    assert clock is not None
    clock.time_out(room.clock())
    room.set_timeouts(seat.index, seat.timeouts + 1)
    room.set_stand_in(seat.index, level)
    away = seat.timeouts >= AWAY_AFTER
    event: Timeout = {"type": "timeout", "seat": seat.index, "level": level, "away": away}
    try:
        await room.note_talk(room.talk.add({
            "kind": "timeout", "seat": seat.index, "away": away,
            "after": len(room.actions), "at": round(room.clock() * 1000),
        }))
    except RoomError:
        log.warning("talk log of room %s is full; timeout not logged", room.code)
    room.commit([event])
    await save(room)
    return event


async def _late(room: ClockedRoom, seat: Seat) -> Late:
    """A turn-based turn ran out (time and bank): no silent loss and no bot yet. The seat
    is late; the other players choose (server.rooms.late): a stand-in, or the end."""
    clock = room.turn_clock
    assert clock is not None
    clock.time_out(room.clock())
    clock.late = True
    event: Late = {"type": "late", "seat": seat.index}
    room.commit([event])
    await save(room)
    return event


async def save(room: ClockedRoom, *, required: bool = False) -> None:
    """Journal the clock as it stands (a checkpoint restored after a restart); `required`:
    raise RoomError `unavailable` if it cannot be made durable (see Room.note_talk)."""
    clock = room.turn_clock
    state: dict[str, Any] = {} if clock is None else clock.state(room.clock())
    state["option"] = room.options.clock.to_dict() if room.options.clock else None
    state["timeouts"] = [s.timeouts for s in room.seats]
    if clock is not None and clock.spent and clock.seat is not None:
        state["finisher"] = room.seats[clock.seat].stand_in
    await room.note_talk({"n": 0, "kind": "clock", **state}, required=required)


def restore(room: ClockedRoom, items: list[dict[str, Any]]) -> None:
    """Put a rebuilt room's talk back: its log, and its clock as last saved (call before
    its first commit)."""
    room.talk.load([i for i in items if i.get("n", 0) > 0])
    saved = next((i for i in items if i.get("n") == 0 and i.get("kind") == "clock"), None)
    if saved is None:
        return
    room.set_clock_option(saved.get("option"))
    if room.turn_clock is not None and room.game is not None and "turn_ms" in saved:
        room.turn_clock.load(saved, room.clock())
    for seat, count in zip(room.seats, saved.get("timeouts") or [], strict=False):
        room.set_timeouts(seat.index, int(count))
    clock = room.turn_clock
    if clock is not None and clock.spent and clock.seat is not None and not clock.late:
        # The stand-in was finishing a timed-out turn: it goes on after the restart.
        room.set_stand_in(clock.seat, saved.get("finisher") or FINISHER)


class ClockKeeper:
    """Times out the turns of the manager's rooms, on the manager's clock."""

    def __init__(self, manager: Rooms, level: str) -> None:
        self.manager = manager
        self.level = level

    async def check(self) -> float | None:
        """Time out every turn that has run out; returns the soonest deadline left."""
        soonest, due = None, []
        now = self.manager.clock()
        for room in list(self.manager.rooms.values()):
            clock = room.turn_clock
            deadline = None if clock is None else clock.deadline()
            if deadline is None:
                continue
            if deadline <= now:
                due.append(room)
            else:
                soonest = deadline if soonest is None else min(soonest, deadline)
        # Together: their journal writes then share group commits instead of queueing.
        results = await asyncio.gather(*(time_out(r, self.level) for r in due),
                                       return_exceptions=True)
        for room, result in zip(due, results, strict=True):
            if isinstance(result, BaseException):
                log.error("timing out a turn of room %s failed: %r", room.code, result)
        return soonest

    async def run(self) -> None:
        saved = self.manager.clock()
        while True:
            soonest = await self.check()
            if self.manager.clock() - saved >= SAVE_TURN_BASED:
                saved = self.manager.clock()
                await self.save_all(turn_based_only=True)
            wait = TICK_MAX if soonest is None else soonest - self.manager.clock()
            await asyncio.sleep(min(TICK_MAX, max(TICK_MIN, wait)))

    async def save_all(self, turn_based_only: bool = False) -> None:
        """Save every running clock (at shutdown: a restart then costs nobody time; and
        every SAVE_TURN_BASED the turn-based ones, whose turns last days: a crash gives
        back at most that much of one)."""
        for room in list(self.manager.rooms.values()):
            if room.turn_clock is None or room.status != "playing":
                continue
            if turn_based_only and not room.options.turn_based:
                continue
            try:
                async with room.lock:
                    await save(room)
            except Exception:
                log.exception("saving the clock of room %s failed", room.code)

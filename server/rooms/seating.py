"""Who sits where: join, leave, kick, hand over the host role, seat a bot, start the game.

Each function takes the room lock, checks, changes, waits for the journal to make the
change durable (still under the lock, so the journal sees the changes in the order they
happened), and only then commits one version and answers. If the journal cannot take it,
the change is undone and the caller gets RoomError `unavailable`: nothing is confirmed
that a restart would lose.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from . import timeouts
from .errors import RoomError, forbidden
from .room import FINISHED, PLAYING, WAITING, Room
from .seat import Seating, hash_token, new_token
from .turnclock import ClockOptionError
from .visible import JOINERS, check_visible

NAME_MAX = 24
BOT_LEVEL = re.compile(r"[a-z0-9_-]{1,32}")


def clean_name(name: str) -> str:
    """A display name: trimmed, 1..24 characters, no control or format characters but the
    emoji joiners, something visible (else `invisible_text`)."""
    name = unicodedata.normalize("NFC", name).strip()
    if not 1 <= len(name) <= NAME_MAX or any(
            unicodedata.category(c)[0] == "C" and c not in JOINERS for c in name):
        raise RoomError("name_invalid", f"a name has 1 to {NAME_MAX} printable characters", 422)
    check_visible(name, "a name")
    return name


def _check_seat(room: Room, seat: int) -> None:
    if not 0 <= seat < len(room.seats):
        raise RoomError("malformed", f"seat must be 0..{len(room.seats) - 1}", 422)


async def _save_seats(room: Room, before: Seating) -> None:
    """Make the seat change durable, or put the seats back as they were and refuse."""
    try:
        await room.save("seats_changed")
    except RoomError:
        room.restore_seating(before)
        raise


def _free_seat(room: Room, seat: int | None) -> int:
    room.check_open()
    if room.status == FINISHED:
        raise RoomError("game_over", "this game is over")
    if seat is None:
        for s in room.seats:
            if not s.filled:
                return s.index
        raise RoomError("room_full", "every seat is taken")
    _check_seat(room, seat)
    if room.seats[seat].filled:
        raise RoomError("room_full", f"seat {seat} is taken")
    return seat


async def join(room: Room, name: str, seat: int | None,
               account_id: int | None = None) -> tuple[int, str]:
    """Sit a player (a signed-in one with their account: one seat per account and room);
    returns (seat, seat_token). Mid-game only a vacated seat can be taken."""
    name = clean_name(name)
    async with room.lock:
        if account_id is not None and seat_of_account(room, account_id) is not None:
            raise RoomError("room_full", "you already have a seat at this table: rejoin it")
        index = _free_seat(room, seat)
        before, token = room.seating(), new_token()
        room.sit(index, name, hash_token(token), account_id)
        await _save_seats(room, before)
        room.commit([{"type": "seat_joined", "seat": index, "name": name}])
        return index, token


async def seat_matched(room: Room, players: Sequence[tuple[str, str, int | None]]) -> None:
    """Quick play: sit the players a matcher put together at a new table, in its first seats
    in order, each as (name, seat token hash, account id); their tokens were made (and are
    handed out) by whoever asked for them. One durable seat change for all of them."""
    async with room.lock:
        room.check_open()
        if room.status != WAITING:
            raise RoomError("not_waiting", "the game has already started")
        before = room.seating()
        for index, (name, token_hash, account_id) in enumerate(players):
            if room.seats[index].filled:
                raise RoomError("room_full", "the seat is taken")
            room.sit(index, clean_name(name), token_hash, account_id)
        await _save_seats(room, before)
        room.commit([{"type": "seat_joined", "seat": index, "name": room.seats[index].name or ""}
                     for index in range(len(players))])


def seat_of_account(room: Room, account_id: int) -> int | None:
    return next((s.index for s in room.seats if s.account_id == account_id), None)


async def rejoin(room: Room, account_id: int) -> tuple[int, str]:
    """A signed-in player takes their seat again (another device): a new seat token for it,
    made durable before it is handed out; the old one no longer opens the seat."""
    async with room.lock:
        room.check_open()
        index = seat_of_account(room, account_id)
        if index is None:
            raise forbidden("you have no seat at this table")
        before, token = room.seating(), new_token()
        room.reseat(index, hash_token(token))
        await _save_seats(room, before)
        return index, token


async def unverify(room: Room, account_id: int) -> int | None:
    """The account is deleted or disabled: its seat at this unfinished table is no longer
    shown verified (the player plays on by the seat token, as a guest). Returns the seat,
    or None if the account holds none here."""
    async with room.lock:
        index = seat_of_account(room, account_id)
        if index is None or room.status not in (WAITING, PLAYING):
            return None
        before = room.seating()
        room.unverify(index)
        await _save_seats(room, before)
        room.commit([])
        return index


async def leave(room: Room, token: str) -> None:
    async with room.lock:
        index = room.seat_of(token)
        if index is None:
            raise forbidden("this is not a seat token of this room")
        if room.status != WAITING:
            raise RoomError("not_waiting", "players can leave only before the game starts")
        before = room.seating()
        room.vacate(index)
        await _save_seats(room, before)
        room.disconnect_seat(index, "left")
        room.commit([{"type": "seat_left", "seat": index}])


async def kick(room: Room, token: str, seat: int) -> None:
    """The host frees a seat (a player or a bot). Mid-game, anyone may then join it."""
    async with room.lock:
        room.check_open()
        if not room.is_host(token):
            raise forbidden("only the host can kick")
        _check_seat(room, seat)
        if room.status == FINISHED:
            raise RoomError("game_over", "this game is over")
        if not room.seats[seat].filled:
            raise RoomError("malformed", f"seat {seat} is empty", 422)
        before = room.seating()
        room.vacate(seat)
        await _save_seats(room, before)
        room.disconnect_seat(seat, "kicked")
        room.commit([{"type": "seat_kicked", "seat": seat}])


async def hand_host(room: Room, token: str, seat: int) -> None:
    async with room.lock:
        room.check_open()
        if not room.is_host(token):
            raise forbidden("only the host can hand over the host role")
        _check_seat(room, seat)
        if room.seats[seat].token_hash is None:
            raise RoomError("malformed", "the host must be a seated player", 422)
        before = room.seating()
        room.set_host(seat)
        await _save_seats(room, before)
        room.commit([{"type": "host_changed", "seat": seat}])


async def add_bot(room: Room, token: str, seat: int | None, level: str) -> None:
    """Put a bot level in a free seat; the seat then counts as filled."""
    if not BOT_LEVEL.fullmatch(level):
        raise RoomError("malformed", "a bot level is a short name like 'easy'", 422)
    async with room.lock:
        room.check_open()
        if not room.is_host(token):
            raise forbidden("only the host can seat a bot")
        index = _free_seat(room, seat)
        before = room.seating()
        room.seat_bot(index, level)
        await _save_seats(room, before)
        room.commit([{"type": "bot_added", "seat": index, "level": level}])


async def start(room: Room, token: str) -> None:
    async with room.lock:
        room.check_open()
        if not room.is_host(token):
            raise forbidden("only the host can start")
        if room.status != WAITING:
            raise RoomError("not_waiting", "the game has already started")
        if not all(s.filled for s in room.seats):
            raise RoomError("seats_empty", "every seat must be taken first")
        room.begin()
        try:
            await room.save("started")
        except RoomError:
            room.unbegin()
            raise
        room.commit([{"type": "game_started"}], game_changed=True)
        await room.save_clock()
    await room.notify([])


async def set_clock(room: Room, token: str, clock: dict[str, int] | None) -> None:
    """The host changes the turn clock while the room is waiting (None: no clock)."""
    async with room.lock:
        room.check_open()
        if not room.is_host(token):
            raise forbidden("only the host can set the clock")
        if room.status != WAITING:
            raise RoomError("not_waiting", "the clock is set before the game starts")
        previous = room.options.clock
        try:
            room.set_clock_option(clock)
        except ClockOptionError as e:
            raise RoomError("malformed", str(e), 422) from None
        try:
            await timeouts.save(room, required=True)  # kept across a restart before the start
        except RoomError:
            room.set_clock_option(previous)
            raise
        room.commit([{"type": "clock_set", "clock": clock}])


async def stand_in(room: Room, seat: int, level: str) -> bool:
    """Let a `level` bot play for the player of `seat`, who is away. False (and nothing
    changes) unless the game is on and the seat is a player's, disconnected, with no bot
    already standing in. Attaching the player again ends it (Room.attach)."""
    async with room.lock:
        target = room.seats[seat]
        if (room.status != PLAYING or target.token_hash is None or target.conn is not None
                or target.stand_in is not None):
            return False
        room.set_stand_in(seat, level)
        room.commit([{"type": "stand_in", "seat": seat, "level": level}])
        return True

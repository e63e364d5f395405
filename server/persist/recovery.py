"""Rebuild the unfinished rooms after a restart: same code, seats, names, bots, token
hashes and host, and the game replayed from (seed, options, actions) through the engine.

A room stored under another RULES_VERSION is not replayed (the same actions may mean
something else, or be illegal, under new rules): it comes back INCOMPATIBLE, readable but
closed, with a notice saying why. So does a room whose journal does not replay.

Versions restart above every version the previous process can have sent: they are
counted from the current time in microseconds, so a client resuming with an old `v`
always gets a fresh snapshot rather than patches meant for another numbering.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from server.db.records import UnfinishedRoom
from server.rooms import FINISHED, INCOMPATIBLE, PLAYING, Room, RoomManager, RoomOptions, timeouts
from server.rules import RULES_VERSION, RuleError

from .journal import RoomJournal

log = logging.getLogger(__name__)

OPTION_FIELDS = ("players", "starter_orders", "starting_player", "public", "clock")


def version_base() -> int:
    return time.time_ns() // 1000


def rebuild(manager: RoomManager, stored: UnfinishedRoom, base: int) -> Room:
    """One room as it was (not registered, nobody told). May raise RuleError or ValueError
    if its journal does not replay."""
    options = RoomOptions(**{k: stored.options[k] for k in OPTION_FIELDS if k in stored.options})
    room = manager.build(stored.code, options, stored.seed, stored.host_token_hash)
    for record in stored.seats:
        seat = room.seats[record.seat]
        seat.name = None if record.bot is not None else record.name
        seat.bot, seat.token_hash = record.bot, record.token_hash
    room.host_seat = stored.host_seat
    room.v = base
    if stored.rules_version != RULES_VERSION:
        close(room, f"this game was played under rules version {stored.rules_version}; "
                    f"this server plays version {RULES_VERSION}, so it cannot continue here")
    elif stored.status == PLAYING:
        actions: list[tuple[int, dict[str, Any]]] = []
        for expected, (seq, seat, action) in enumerate(stored.actions, start=1):
            if seq != expected or seat is None:
                raise ValueError(f"journal of {stored.code}: row {seq} where {expected} was due")
            actions.append((seat, action))
        room.game = room.replay(actions)  # checks every action again, and seq == version
        room.actions, room.status = actions, PLAYING
    timeouts.restore(room, list(stored.talk))  # chat, and the clock as last saved
    room.commit([], game_changed=room.game is not None)
    return room


def close(room: Room, notice: str) -> None:
    room.status, room.notice, room.game, room.actions = INCOMPATIBLE, notice, None, []


async def restore_rooms(
    manager: RoomManager,
    journal: RoomJournal,
    stored: list[UnfinishedRoom],
    base: Callable[[], int] = version_base,
) -> list[Room]:
    """Put every stored unfinished room back into the manager; returns them. A game that
    was over but not yet saved (a crash between its last action and its record) is
    finished now; bots of playing rooms are woken (listeners hear `[]`, as at a start)."""
    first = base()
    rooms = []
    for stored_room in stored:
        try:
            room = rebuild(manager, stored_room, first)
        except (RuleError, ValueError, TypeError, KeyError) as exc:
            log.error("room %s cannot be restored: %r", stored_room.code, exc)
            room = rebuild(manager, replace(stored_room, status="waiting", actions=()), first)
            close(room, "this game's record could not be replayed, so it cannot continue")
            room.commit([])
        manager.restore(room)
        rooms.append(room)
        if stored_room.started_at is not None:
            journal.started_at[room.code] = stored_room.started_at
    for room in rooms:
        if room.status == PLAYING and room.game is not None and room.game.phase == "over":
            async with room.lock:
                room.status, room.finished_at = FINISHED, manager.clock()
                room.commit([])
                await room.tell_journal("finished")
    for room in rooms:
        if room.status == PLAYING:
            await room.notify([])
    counts = {s: sum(r.status == s for r in rooms) for s in {r.status for r in rooms}}
    if rooms:
        log.warning("restored %d room(s) from the journal: %s", len(rooms), counts)
    return rooms


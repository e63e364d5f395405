"""Rebuild the rooms after a restart: same code, seats, names, bots, token hashes and
host, and the game replayed from (seed, options, actions) through the engine. Unfinished
rooms carry on; a finished one is on show again until FINISHED_ROOM_TTL after its end.

A room stored under a previous RULES_VERSION whose games this engine replays the same
(`REPLAYED_VERSIONS`, vouched for by the recorded games of the known-answer tests) is
restored when its whole action log is accepted again, each action from its seat in turn,
and carries on under the current rules; if one action is refused it comes back
INCOMPATIBLE, readable but closed, with a notice naming that action. A room of any other
version is not replayed (the same actions may mean something else under these rules) and
comes back INCOMPATIBLE too. So does a room whose stored record does not make a room (an
unreadable seed or action, options without a player count) or whose journal does not
replay: one bad record is logged in one line and closes its room, never the server.

Versions restart above every version the previous process can have sent: they are
counted from the current time in microseconds, so a client resuming with an old `v`
always gets a fresh snapshot rather than patches meant for another numbering.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import datetime

from server.db.models import utcnow
from server.db.records import UnfinishedRoom
from server.rooms import (
    FINISHED,
    PLAYING,
    Room,
    RoomManager,
    RoomOptions,
    timeouts,
)
from server.rules import (
    REPLAYED_VERSIONS,
    RULES_VERSION,
    Action,
    RuleError,
    apply,
    is_over,
    new_game_from,
)

from .journal import RoomJournal

log = logging.getLogger(__name__)

def one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or "no detail"
    return f"{type(exc).__name__}: {text[:300]}"


def version_base() -> int:
    return time.time_ns() // 1000


def rebuild(manager: RoomManager, stored: UnfinishedRoom, base: int) -> Room:
    """One room as it was (not registered, nobody told). Raises if its stored record does
    not make a room or its journal does not replay."""
    if stored.defect is not None:
        raise ValueError(stored.defect)
    options = RoomOptions.from_dict(stored.options)
    room = manager.build(stored.code, options, stored.seed, stored.host_token_hash)
    for record in stored.seats:
        room.restore_seat(record.seat, record.name, record.bot, record.token_hash,
                          record.account_id)
    room.restore_host(stored.host_seat)
    room.number_versions_from(base)
    if stored.rules_version not in REPLAYED_VERSIONS:
        room.make_incompatible(
            f"this game was played under rules version {stored.rules_version}; "
            f"this server plays version {RULES_VERSION}, so it cannot continue here")
    elif stored.status in (PLAYING, FINISHED):
        actions: list[tuple[int, Action]] = []
        for expected, (seq, by, action) in enumerate(stored.actions, start=1):
            if seq != expected or by is None:
                raise ValueError(f"journal of {stored.code}: row {seq} where {expected} was due")
            actions.append((by, action))
        refused = None if stored.rules_version == RULES_VERSION else upgrade_refusal(
            stored, options, actions)
        if refused is not None:
            log.warning("room %s of rules version %d not restored: %s", stored.code,
                        stored.rules_version, refused)
            room.make_incompatible(refused)
        else:  # every action is checked again, and seq == version
            room.restore_game(stored.status, actions, seconds_since(stored.finished_at))
    timeouts.restore(room, list(stored.talk))  # chat, and the clock as last saved
    room.commit([], game_changed=room.game is not None)
    return room


def upgrade_refusal(stored: UnfinishedRoom, options: RoomOptions,
                    actions: list[tuple[int, Action]]) -> str | None:
    """Why the log of a room of a previous rules version does not replay under these rules
    (the first action refused, or a finished game that does not end), or None if it does."""
    game = new_game_from(stored.seed, options)
    for n, (seat, action) in enumerate(actions, start=1):
        try:
            apply(game, action, seat)
        except RuleError as exc:
            kind = action.get("type") if isinstance(action, dict) else None
            return (f"this game was played under rules version {stored.rules_version} and "
                    f"does not replay under version {RULES_VERSION}: its action {n} "
                    f"({kind!r} by seat {seat}) is refused ({exc.message}), so it cannot "
                    "continue here")
    if stored.status == FINISHED and not is_over(game):
        return (f"this game was played under rules version {stored.rules_version} and "
                f"does not end under version {RULES_VERSION}, so it cannot be shown here")
    return None


def quarantined(manager: RoomManager, stored: UnfinishedRoom, base: int) -> Room:
    """A closed room showing what can still be shown of a record that does not rebuild:
    its seats and names, when they make sense. Never raises on bad stored values."""
    players = stored.options.get("players") if isinstance(stored.options, dict) else None
    if type(players) is not int or not 2 <= players <= 4:
        players = max([2, *(r.seat + 1 for r in stored.seats if 0 <= r.seat < 4)])
    room = manager.build(stored.code, RoomOptions(players), 0, stored.host_token_hash)
    for record in stored.seats:
        if 0 <= record.seat < players:
            room.restore_seat(record.seat, record.name, record.bot, record.token_hash,
                              record.account_id)
    if stored.host_seat is not None and 0 <= stored.host_seat < players:
        room.restore_host(stored.host_seat)
    room.number_versions_from(base)
    room.make_incompatible("this game's record could not be replayed, so it cannot continue")
    room.commit([])
    return room


def seconds_since(at: datetime | None) -> float:
    return 0.0 if at is None else max(0.0, (utcnow() - at).total_seconds())


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
        except Exception as exc:  # one bad record must not keep the server from starting
            log.error("room %s cannot be restored, closed instead: %s", stored_room.code,
                      one_line(exc))
            room = quarantined(manager, stored_room, first)
        manager.restore(room)
        rooms.append(room)
        if room.status == PLAYING and stored_room.started_at is not None:
            journal.started_at[room.code] = stored_room.started_at
    for room in rooms:
        if room.status == PLAYING and room.game is not None and is_over(room.game):
            async with room.lock:
                room.finish()
                room.commit([])
                await room.tell_journal("finished")
    for room in rooms:
        if room.status == PLAYING:
            await room.notify([])
    counts = {s: sum(r.status == s for r in rooms) for s in {r.status for r in rooms}}
    if rooms:
        log.warning("restored %d room(s) from the journal: %s", len(rooms), counts)
    return rooms


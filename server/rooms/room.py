"""A room: seats, viewers, versions and per-viewer diffs around one game. No rules here.

Every change to what anyone sees is a *version*. For each version the room computes the
public game view once, diffs it once against the previous one (shared by every viewer),
then diffs only the small per-seat part (seat, can_undo, legal) for each seat. Frames are
serialized once per viewer kind and queued on each connection; the ring buffer keeps the
last versions for clients that come back.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from array import array
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from typing import Any, Protocol

from server.jsontext import dumps
from server.rules import (
    Game,
    PublicView,
    RuleError,
    SeatExtras,
    apply,
    is_over,
    new_game_from,
    public_view,
    seat_extras,
)

from . import chat, outgoing, stages, timeouts
from .actionlog import ActionLog
from .codes import display
from .connection import Connection
from .diff import Op, diff
from .errors import RoomError
from .events import Event, Presence
from .history import Entry, FrameTexts, History, RecentEvents
from .options import RoomOptions
from .seat import Seat, Seating, hash_token, new_token, same_hash
from .turnclock import ClockOption, TurnClock

log = logging.getLogger(__name__)

WAITING, PLAYING, FINISHED = "waiting", "playing", "finished"
# Events kept for "what happened lately", shown to a viewer who (re)loads the table.
RECENT_EVENTS = 80
# A room restored from storage whose game was played under other rules: shown, not played.
INCOMPATIBLE = "incompatible"
# A room this instance handed over to another (cluster mode): its viewers reconnect there.
MOVED = "moved"

# An async callback awaited after each committed game change: the start (no events) and
# every accepted action (the engine's events), and after a seat connects or disconnects
# (a "presence" event). It runs outside the room lock; one that wants to act (a bot)
# should schedule its own task rather than act inline.
Listener = Callable[["Room", Sequence[Event]], Awaitable[None]]


class Journal(Protocol):
    """Where accepted actions and seating changes go before anyone hears (e.g. the
    database writer in server.persist).

    The room awaits these under its lock, so the journal sees changes in the order they
    happened. `accepted` is awaited after the engine accepts an action and before the ack
    and patches are sent; if it raises, the action is rolled back and the client gets
    error "unavailable". `seq` is the game's version after the action (1 for the first;
    an undo counts as one). `room_created`, `seats_changed` and `started` are awaited the
    same way before anyone hears: if they raise, the change is undone and the caller gets
    "unavailable" (HTTP 503). An exception from `finished` or `abandoned` is logged: the
    game is over, or the room expired, either way. An optional `talk(room, item)` keeps
    talk items (see Room.note_talk)."""

    async def room_created(self, room: Room) -> None: ...
    async def seats_changed(self, room: Room) -> None: ...
    async def started(self, room: Room) -> None: ...
    async def accepted(self, room: Room, seq: int, action: dict[str, Any], seat: int) -> None: ...
    async def finished(self, room: Room) -> None: ...
    async def abandoned(self, room: Room) -> None: ...


class NullJournal:
    """Keeps nothing: rooms live in memory only."""

    async def room_created(self, room: Room) -> None:
        return None

    async def seats_changed(self, room: Room) -> None:
        return None

    async def started(self, room: Room) -> None:
        return None

    async def accepted(self, room: Room, seq: int, action: dict[str, Any], seat: int) -> None:
        return None

    async def finished(self, room: Room) -> None:
        return None

    async def abandoned(self, room: Room) -> None:
        return None


class Room:
    def __init__(
        self,
        code: str,
        options: RoomOptions,
        *,
        journal: Journal,
        clock: Callable[[], float],
        seed: int,
        host_token_hash: str,
        resume_buffer: int,
        listeners: list[Listener] | None = None,
        max_spectators: int = 1000,
        presence_interval: float = 0.0,
        chat_limits: chat.Limits | None = None,
    ) -> None:
        self.code = code
        self.options = options
        self.journal = journal
        self.clock = clock
        self.seed = seed  # drawn when the room is created, so storage knows it from the start
        self.listeners: list[Listener] = list(listeners or [])
        self.host_token_hash = host_token_hash
        self.host_seat: int | None = None
        self.seats = [Seat(i) for i in range(options.players)]
        self.spectators: set[Connection] = set()
        self.status = WAITING
        self.game: Game | None = None
        self.actions = ActionLog()  # accepted (seat, action), in order
        # The version that carried each accepted action (0: before a restart, unknown).
        self.action_versions = array("Q")
        self.notice: str | None = None  # why an INCOMPATIBLE room cannot be played
        self.rematch: str | None = None  # display code of the next game at this table
        # The players' seat tokens for that next game, until each asks for theirs (memory
        # only, like every token here: the room keeps hashes of its own tokens).
        self.rematch_tokens: dict[int, str] = {}
        self.v = 0  # every change anyone can see
        self.game_v = 0  # the version of the last game change (for stale actions)
        self.lock = asyncio.Lock()
        self.history = History(resume_buffer)
        self.recent = RecentEvents(RECENT_EVENTS)
        self.created_at = self.touched_at = clock()
        self.finished_at: float | None = None
        self.talk = chat.TalkLog(limits=chat_limits or chat.Limits())
        self.turn_clock: TurnClock | None = None
        self.clock_dirty = False  # a new turn began: its clock is worth journaling
        self.set_clock_option(options.clock)
        self._info = self.info()
        self._info_made_from = self._info_inputs()
        self._public: PublicView | None = None
        self._extras: dict[int | None, SeatExtras] = {}
        # (v, text): one snapshot text for a crowd of spectators joining at a version,
        # dropped at the next (~3 KiB a room).
        self._spectator_snapshot: tuple[int, str] | None = None
        # Spectators come and go in crowds: their count is published at most once per
        # presence_interval (real seconds), the changes in between together.
        self.max_spectators = max_spectators
        self.presence_interval = presence_interval
        self._presence_at = -presence_interval
        self._presence_flush: asyncio.Task[None] | None = None

    def set_clock_option(self, value: ClockOption | dict[str, int] | None) -> None:
        """Choose the turn clock (before the start)."""
        option = ClockOption.from_value(value)
        self.options = dataclasses.replace(self.options, clock=option)
        self.turn_clock = None if option is None else TurnClock(
            option, len(self.seats), self.options.turn_based)

    @property
    def display_code(self) -> str:
        return display(self.code)

    # --- what viewers see --------------------------------------------------------------

    def info(self) -> dict[str, Any]:
        info = {
            "code": self.display_code,
            "status": self.status,
            "options": self.options.to_dict(),
            "host_seat": self.host_seat,
            "seats": [s.info() for s in self.seats],
            "spectators": len(self.spectators),
        }
        if self.notice is not None:
            info["notice"] = self.notice
        if self.rematch is not None:
            info["rematch"] = self.rematch
        if self.turn_clock is not None and self.status == "playing":
            info["clock"] = self.turn_clock.view(self.clock())
        return info

    def _info_inputs(self) -> tuple[Any, ...] | None:
        """Everything `info` is made from, or None when it changes at every version (a
        running turn clock): while these are unchanged the info is too."""
        if self.turn_clock is not None and self.status == "playing":
            return None
        return (self.status, self.options, self.host_seat, len(self.spectators), self.notice,
                self.rematch, [(s.name, s.conn is None, s.bot, s.stand_in, s.timeouts,
                                s.account_id) for s in self.seats])

    def check_open(self) -> None:
        """Refuse anything but reading the info of a room that cannot be played here."""
        if self.status == INCOMPATIBLE:
            raise RoomError("incompatible", self.notice or "this game cannot continue", 409)
        if self.status == MOVED:
            raise RoomError("moved", "this table moved to another server; reconnect", 503)

    def view(self, seat: int | None) -> dict[str, Any]:
        """The VIEW of a seat (None: a spectator) at the current version. Read-only."""
        game = None
        if self._public is not None:
            game = {**self._public, **self._extras[seat]}
        you = {"seat": seat, "role": "spectator" if seat is None else "player"}
        return {"room": self._info, "you": you, "game": game}

    def game_log(self, upto: int | None = None) -> list[dict[str, Any]]:
        """The whole game's events, oldest first, each with the version that carried it:
        the game's own replayed from its actions (exact: randomness is state), with the
        room's recent other events (seats, presence) among them; only up to version `upto`
        if given. For a viewer who reloads or arrives late: rebuilt on demand (a game's
        replay takes a few milliseconds) rather than kept."""
        entries: list[dict[str, Any]] = []
        if self.game is not None:
            game = self.new_game()
            for (seat, action), v in zip(self.actions, self.action_versions, strict=True):
                entries += ({"v": v, "event": event} for event in apply(game, action, seat))
        played = set(self.action_versions)
        entries += (e for e in self.recent.listed() if e["v"] not in played)
        entries.sort(key=lambda e: int(e["v"]))  # stable: a version's events keep their order
        return [e for e in entries if upto is None or e["v"] <= upto]

    def snapshot(self, seat: int | None) -> str:
        if seat is None and self._spectator_snapshot and self._spectator_snapshot[0] == self.v:
            return self._spectator_snapshot[1]
        text = dumps(outgoing.snapshot(self.v, self.view(seat)))
        if seat is None:
            self._spectator_snapshot = (self.v, text)
        return text

    def connections(self) -> Iterator[Connection]:
        yield from self.spectators
        for seat in self.seats:
            if seat.conn is not None:
                yield seat.conn

    def seat_of(self, token: str) -> int | None:
        given, found = hash_token(token), None
        for seat in self.seats:  # no early exit: the time taken does not depend on the match
            if same_hash(given, seat.token_hash):
                found = seat.index
        return found

    def is_host(self, token: str | None) -> bool:
        if token is None:
            return False
        given = hash_token(token)
        if same_hash(given, self.host_token_hash):
            return True
        return self.host_seat is not None and same_hash(
            given, self.seats[self.host_seat].token_hash
        )

    # --- versions (call with the lock held) ----------------------------------------------

    def commit(self, events: Sequence[Event], game_changed: bool = False) -> bool:
        """Publish the current state as a new version; False if nobody would see a change."""
        self._mark_absences()
        if timeouts.tick(self):
            self.clock_dirty = True
        inputs = self._info_inputs()
        if inputs is None or inputs != self._info_made_from:
            info, self._info_made_from = self.info(), inputs
        else:
            info = self._info  # the same object: nothing to diff
        shared: list[Op] = diff(self._info, info, "/room")
        by_seat: dict[int | None, list[Op]] = {}
        if game_changed and self.game is not None:
            public = public_view(self.game)
            extras = {s: seat_extras(self.game, s) for s in (None, *range(len(self.seats)))}
            if self._public is None:  # the game starts: each viewer gets its whole view
                for s, own in extras.items():
                    by_seat[s] = [{"op": "replace", "path": "/game", "value": {**public, **own}}]
            else:
                shared += diff(self._public, public, "/game")
                last = self._extras
                for s, own in extras.items():
                    if own is last[s]:  # a seat still waiting: its part is shared as it was
                        continue
                    ops = diff(last[s], own, "/game")
                    if ops:
                        by_seat[s] = ops
            self._public, self._extras = public, extras
        if not shared and not by_seat and not game_changed:
            return False
        self._info = info
        self.v += 1
        self._spectator_snapshot = None
        if game_changed:
            self.game_v = self.v
        self.touched_at = self.clock()
        entry = Entry(self.v, shared, by_seat, events)
        self.history.append(entry)
        self.recent.add(entry, len(events))
        texts = FrameTexts(entry)
        for conn in self.connections():
            conn.send(texts.text(conn.seat))
        stages.queued(self.connections)  # called only when the action is timed
        return True

    # --- presence ------------------------------------------------------------------------

    def _mark_absences(self) -> None:
        """Note when each player's seat lost (or never had) its connection. A turn-based
        player is not at the table between moves: nobody counts them absent (no bot takes
        over after SEAT_GRACE; only their turn clock runs)."""
        now = None
        for seat in self.seats:
            if seat.conn is not None or seat.token_hash is None or self.options.turn_based:
                seat.away_since = None
            elif seat.away_since is None:
                now = self.clock() if now is None else now
                seat.away_since = now

    async def attach(self, conn: Connection, token: str | None, resume: int | None) -> None:
        """Start sending to `conn` (a seat's if `token` is its seat token, else a spectator's):
        the missed patches if `resume` is recent enough, else a snapshot."""
        async with self.lock:
            self.check_open()
            seat = None if token is None else self.seat_of(token)
            if token is not None and seat is None:
                raise RoomError("forbidden", "unknown seat token; hello without one to watch", 403)
            conn.seat, conn.attached = seat, True
            if seat is None:
                if len(self.spectators) >= self.max_spectators:
                    conn.attached = False
                    raise RoomError("spectators_full", f"this table already has "
                                    f"{self.max_spectators} spectators; try again later", 503)
                self.spectators.add(conn)
                event: Presence | None = None
            else:
                old = self.seats[seat].conn
                if old is not None:
                    old.attached = False
                    old.close("replaced")
                # The player is back: a bot standing in stops before its next action,
                # unless it is finishing a turn that timed out (then at that turn's end).
                self.seats[seat].conn = conn
                if not timeouts.finishing(self, seat):
                    self.seats[seat].stand_in = None
                event = {"type": "presence", "seat": seat, "connected": True}
            self._catch_up(conn, resume)
            chat.send_recent(self, conn)
            if event is None:
                self._spectators_changed()
            else:
                self.commit([event])
        if event is not None:
            await self.notify([event])

    def _catch_up(self, conn: Connection, resume: int | None) -> None:
        if resume is not None and resume <= self.v:
            entries = self.history.since(resume, self.v)
            if entries:
                for entry in entries:
                    conn.send(FrameTexts(entry).text(conn.seat))
                return
            if entries == []:  # already current: an empty patch says so
                conn.send_json(outgoing.patch(self.v, [], []))
                return
        conn.send(self.snapshot(conn.seat))

    async def detach(self, conn: Connection) -> None:
        event: Presence | None = None
        async with self.lock:
            if not conn.attached:
                return
            conn.attached = False
            if conn.seat is None:
                self.spectators.discard(conn)
                self._spectators_changed()
            elif self.seats[conn.seat].conn is conn:
                self.seats[conn.seat].conn = None
                event = {"type": "presence", "seat": conn.seat, "connected": False}
                self.commit([event])
        if event is not None:
            await self.notify([event])

    def _spectators_changed(self) -> None:
        """Publish the spectator count now, or at most presence_interval after the last
        time (call with the lock held)."""
        if self._presence_flush is not None:
            return  # already due: it will publish the count as it is then
        wait = self._presence_at + self.presence_interval - time.monotonic()
        if wait <= 0:
            self._publish_spectators()
        else:
            self._presence_flush = asyncio.create_task(self._publish_spectators_after(wait))

    def _publish_spectators(self) -> None:
        self._presence_at = time.monotonic()
        self.commit([{"type": "spectators", "count": len(self.spectators)}])

    async def _publish_spectators_after(self, wait: float) -> None:
        await asyncio.sleep(wait)
        async with self.lock:
            self._presence_flush = None
            self._publish_spectators()

    def close_all(self, reason: str, code: int = 1000) -> None:
        if self._presence_flush is not None:
            self._presence_flush.cancel()
            self._presence_flush = None
        for conn in list(self.connections()):
            conn.attached = False
            conn.close(reason, code)
        self.spectators.clear()
        for seat in self.seats:
            seat.conn = None

    # --- lifecycle: the only writers of status, game, actions, finished_at and notice --------

    def begin(self) -> None:
        """WAITING -> PLAYING: deal the game from the room's seed and options."""
        self.game, self.status = self.new_game(), PLAYING

    def unbegin(self) -> None:
        """Undo `begin` (the start could not be made durable)."""
        self.game, self.status = None, WAITING

    def finish(self) -> None:
        """PLAYING -> FINISHED: the game is over."""
        self.status, self.finished_at = FINISHED, self.clock()
        log.info("game finished in room %s", self.display_code,
                 extra={"room": self.display_code})

    def make_incompatible(self, notice: str) -> None:
        """A restored room that cannot be played here: readable, closed, `notice` says why."""
        self.status, self.notice, self.game = INCOMPATIBLE, notice, None
        self.actions, self.action_versions = ActionLog(), array("Q")

    def move_away(self) -> None:
        """Handed over to another instance (cluster mode): its viewers reconnect there."""
        self.status = MOVED
        self.close_all("moved", 1012)

    def number_versions_from(self, base: int) -> None:
        """A rebuilt room's versions restart at `base`, above any sent before (no viewer yet)."""
        self.v = base

    def restore_seat(self, index: int, name: str | None, bot: str | None,
                     token_hash: str | None, account_id: int | None = None) -> None:
        """A seat as stored (a bot seat keeps no name)."""
        seat = self.seats[index]
        seat.name = None if bot is not None else name
        seat.bot, seat.token_hash, seat.account_id = bot, token_hash, account_id

    def restore_host(self, seat: int | None) -> None:
        if seat is not None and not 0 <= seat < len(self.seats):
            raise ValueError(f"host seat {seat} of {len(self.seats)}")
        self.host_seat = seat

    def restore_game(self, status: str, actions: list[tuple[int, dict[str, Any]]],
                     finished_ago: float = 0.0) -> None:
        """A PLAYING or FINISHED room rebuilt from storage by replaying its actions (each is
        checked again). Raises if they do not replay, or a finished game does not end."""
        if status not in (PLAYING, FINISHED):
            raise ValueError(f"a game cannot be restored as {status!r}")
        game = self.replay(actions)
        if status == FINISHED and not is_over(game):
            raise ValueError(f"the saved game of {self.code} does not replay to its end")
        self.game, self.actions, self.status = game, ActionLog(actions), status
        self.action_versions = array("Q", bytes(8 * len(self.actions)))
        if status == FINISHED:
            self.finished_at = self.clock() - finished_ago

    def seat_players_of(self, old: Room) -> dict[int, str]:
        """A rematch: the old room's players take the same seats here, with new tokens, and
        the same host seat (else the first player). Returns the new tokens by seat."""
        tokens = {}
        for seat in old.seats:
            if seat.token_hash is not None:
                target, tokens[seat.index] = self.seats[seat.index], new_token()
                target.name, target.token_hash = seat.name, hash_token(tokens[seat.index])
                target.account_id = seat.account_id
        humans = [s.index for s in old.seats if s.token_hash is not None]
        self.host_seat = old.host_seat if old.host_seat is not None else (
            humans[0] if humans else None)
        return tokens

    def unseat_players(self, seats: list[int]) -> None:
        """Undo `seat_players_of` (the seats could not be made durable)."""
        for index in seats:
            self.seats[index].vacate()
        self.host_seat = None

    def link_rematch(self, new: Room, tokens: dict[int, str]) -> None:
        """The next game at this table is `new`; its players' tokens wait here."""
        self.rematch_tokens.update(tokens)
        self.rematch = new.display_code
        self.commit([{"type": "rematch", "code": new.display_code}])

    # --- who sits where: the only writers of seats and host (seating.py, timeouts.py) ---

    def seating(self) -> Seating:
        """The seats and host as they are, for `restore_seating` if a change cannot be saved."""
        return ([(s.name, s.token_hash, s.bot, s.stand_in, s.account_id) for s in self.seats],
                self.host_seat)

    def restore_seating(self, before: Seating) -> None:
        seats, self.host_seat = before
        for seat, (name, token_hash, bot, stand_in, account_id) in zip(self.seats, seats,
                                                                       strict=True):
            seat.name, seat.token_hash, seat.bot, seat.stand_in = name, token_hash, bot, stand_in
            seat.account_id = account_id

    def sit(self, index: int, name: str, token_hash: str, account_id: int | None = None) -> None:
        """A player takes a free seat (signed in: with their account); the first player to
        sit is the host."""
        seat = self.seats[index]
        seat.name, seat.token_hash, seat.account_id = name, token_hash, account_id
        if self.host_seat is None:
            self.host_seat = index

    def reseat(self, index: int, token_hash: str) -> None:
        """The seat's player takes it with a new token (a signed-in player back from another
        device); the old token no longer opens it."""
        self.seats[index].token_hash = token_hash

    def unverify(self, index: int) -> None:
        """The seat's account is gone (deleted or disabled): its player plays on by the
        seat token, as a guest, no longer shown verified."""
        self.seats[index].account_id = None

    def seat_bot(self, index: int, level: str | None) -> None:
        self.seats[index].bot = level

    def vacate(self, index: int) -> None:
        """The seat is free again; if it was the host's, the first player left hosts."""
        self.seats[index].vacate()
        if self.host_seat == index:
            humans = [s.index for s in self.seats if s.token_hash is not None]
            self.host_seat = humans[0] if humans else None

    def disconnect_seat(self, index: int, reason: str) -> None:
        """Close the socket of a seat whose vacating is durable."""
        seat = self.seats[index]
        if seat.conn is not None:
            seat.conn.attached = False
            seat.conn.close(reason)
            seat.conn = None

    def set_host(self, index: int) -> None:
        self.host_seat = index

    def set_stand_in(self, index: int, level: str | None) -> None:
        """A bot level plays for the seat's player (None: the player plays again)."""
        self.seats[index].stand_in = level

    def set_timeouts(self, index: int, count: int) -> None:
        """Turns the seat's player has let time out in a row (server.rooms.timeouts)."""
        self.seats[index].timeouts = count

    # --- playing -------------------------------------------------------------------------

    def new_game(self) -> Game:
        return new_game_from(self.seed, self.options)

    def replay(self, actions: Iterable[tuple[int, dict[str, Any]]]) -> Game:
        """The game after `actions` from the start: randomness is state, so this is exact."""
        game = self.new_game()
        for seat, action in actions:
            apply(game, action, seat)
        return game

    async def act(
        self, seat: int, action: dict[str, Any], v: int, *, bot: str | None = None,
    ) -> int:
        """Apply a seat's action; returns the new version. Raises RoomError, changing nothing.

        `bot`: the level of the bot acting for the seat; refused as stale if that bot no
        longer plays it (its player came back, or the seat was freed)."""
        async with self.lock:
            self.check_open()
            game = self.game
            if game is None:
                raise RoomError("not_started", "the game has not started yet")
            if v < self.game_v or v > self.v:
                raise RoomError("stale", f"the game changed since version {v}; now {self.v}")
            if bot is not None and self.seats[seat].played_by != bot:
                raise RoomError("stale", f"a {bot} bot no longer plays seat {seat}")
            if bot is None:
                timeouts.check_act(self, seat)
            try:
                events = apply(game, action, seat)
            except RuleError as e:
                raise RoomError(e.code, e.message) from None
            stages.applied()
            try:
                await self.journal.accepted(self, game.version, action, seat)
            except Exception as exc:
                # Rare (the database journal falls back to a local file): rather than copy
                # the game before every action, rebuild it from the accepted actions.
                # An unwritable disk or database (OSError) is logged by the journal, once.
                (log.debug if isinstance(exc, OSError) else log.exception)(
                    "journal failed; action rolled back in room %s",
                    self.display_code, extra={"room": self.display_code})
                self.game = self.replay(self.actions)
                raise RoomError("unavailable", "the action could not be saved", 503) from None
            stages.durable()
            self.actions.append(seat, action)
            if bot is None:
                timeouts.acted(self, seat)
            finished = is_over(game)
            if finished:
                self.finish()
            self.commit(events, game_changed=True)
            version = self.v
            self.action_versions.append(version)
            await self.save_clock()
            if finished:
                await self.tell_journal("finished")
                for conn in self.connections():  # the spectators' channel opens to players
                    if conn.seat is not None:
                        chat.send_recent(self, conn)
        await self.notify(events)
        return version

    async def save(self, hook: str) -> None:
        """Tell the journal and wait until the change is durable; if it cannot be made
        durable, raise RoomError `unavailable` (the caller undoes the change first)."""
        try:
            await getattr(self.journal, hook)(self)
        except Exception as exc:
            (log.debug if isinstance(exc, OSError) else log.exception)(
                "journal %s failed for room %s", hook, self.code)
            raise RoomError("unavailable", "the change could not be saved; try again",
                            503) from None

    async def tell_journal(self, hook: str) -> None:
        """Tell the journal of a change that stands either way (a game over, an expiry)."""
        try:
            await getattr(self.journal, hook)(self)
        except Exception:
            log.exception("journal %s failed for room %s", hook, self.display_code,
                          extra={"room": self.display_code})

    async def save_clock(self) -> None:
        """Journal the clock if a new turn began (call under the lock, after a commit)."""
        if self.clock_dirty:
            self.clock_dirty = False
            await timeouts.save(self)

    async def note_talk(self, item: dict[str, Any], *, required: bool = False) -> None:
        """Journal one talk item (chat, timeout, clock); a journal without talk keeps none.
        A failure is logged: talk is never worth refusing a game change for. `required`:
        the item is itself the change (a chat message, the host's clock setting), so a
        failure raises RoomError `unavailable` instead (the caller undoes the change first)."""
        hook = getattr(self.journal, "talk", None)
        if hook is None:
            return
        try:
            await hook(self, item)
        except Exception:
            log.exception("journal talk failed for room %s", self.code)
            if required:
                raise RoomError("unavailable", "the change could not be saved; try again",
                                503) from None

    async def notify(self, events: Sequence[Event]) -> None:
        for listener in list(self.listeners):
            try:
                await listener(self, events)
            except Exception:
                log.exception("listener failed in room %s", self.display_code,
                              extra={"room": self.display_code})

"""A room's state and its hooks (journal, listeners); the concerns build on it."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from array import array
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from typing import Any, Protocol, Self, TypeAlias, TypeVar

from server.rules import Action, Game, PublicView, SeatExtras, apply, is_over, new_game_from

from .. import chat
from ..actionlog import ActionLog
from ..codes import display
from ..connection import Connection
from ..errors import RoomError
from ..events import Event
from ..history import History, RecentEvents
from ..options import RoomOptions
from ..seat import Seat
from ..turnclock import ClockOption, TurnClock

log = logging.getLogger(__name__)

WAITING, PLAYING, FINISHED = "waiting", "playing", "finished"
# Events kept for "what happened lately", shown to a viewer who (re)loads the table.
RECENT_EVENTS = 80
# A room restored from storage whose game was played under other rules: shown, not played.
INCOMPATIBLE = "incompatible"
# A room this instance handed over to another (cluster mode): its viewers reconnect there.
MOVED = "moved"

# `R` is the room type (Room): a journal or a listener is told the room itself.
R = TypeVar("R", contravariant=True)

# An async callback awaited after each committed game change: the start (no events) and
# every accepted action (the engine's events), and after a seat connects or disconnects
# (a "presence" event). It runs outside the room lock; one that wants to act (a bot)
# should schedule its own task rather than act inline.
ListenerOf: TypeAlias = Callable[[R, Sequence[Event]], Awaitable[None]]


class JournalOf(Protocol[R]):
    """Where accepted actions and seating changes go before anyone hears (e.g. the
    database writer in server.persist).

    The room awaits these under its lock, so the journal sees changes in the order they
    happened. `accepted` is awaited after the engine accepts an action and before the ack
    and patches are sent; if it raises, the action is rolled back and the client gets
    error "unavailable". `seq` is the game's version after the action (1 for the first;
    an undo counts as one). `room_created`, `seats_changed` and `started` are awaited the
    same way before anyone hears: if they raise, the change is undone and the caller gets
    "unavailable" (HTTP 503). An exception from `finished`, `abandoned` or `discarded` is
    logged: the game is over, or the room expired or was closed unplayed
    (RoomManager.discard), either way. An optional `talk(room, item)` keeps
    talk items (see Room.note_talk)."""

    async def room_created(self, room: R) -> None: ...
    async def seats_changed(self, room: R) -> None: ...
    async def started(self, room: R) -> None: ...
    async def accepted(self, room: R, seq: int, action: Action, seat: int) -> None: ...
    async def finished(self, room: R) -> None: ...
    async def abandoned(self, room: R) -> None: ...
    async def discarded(self, room: R) -> None: ...


class NullJournal:
    """Keeps nothing: rooms live in memory only."""

    async def room_created(self, room: object) -> None:
        return None

    async def seats_changed(self, room: object) -> None:
        return None

    async def started(self, room: object) -> None:
        return None

    async def accepted(self, room: object, seq: int, action: Action, seat: int) -> None:
        return None

    async def finished(self, room: object) -> None:
        return None

    async def abandoned(self, room: object) -> None:
        return None

    async def discarded(self, room: object) -> None:
        return None


class RoomState:
    """The state every part of a room reads; written only by the room's own classes."""

    # Slots, not a dict of its own: past 30 attributes an instance's dict shares no keys
    # with the others' (~1.6 KiB a room); now 37 pointers (~0.3 KiB). The concerns that
    # build on it (seats, versions, presences, lifecycle, play) declare none of their own.
    __slots__ = (
        "code", "options", "journal", "clock", "seed", "listeners", "host_token_hash",
        "host_seat", "seats", "spectators", "status", "game", "actions", "action_versions",
        "notice", "rematch", "rematch_tokens", "v", "game_v", "lock", "history", "recent",
        "created_at", "touched_at", "finished_at", "talk", "turn_clock", "clock_dirty",
        "_info", "_info_made_from", "_public", "_extras", "_spectator_snapshot",
        "max_spectators", "presence_interval", "_presence_at", "_presence_flush",
        "__weakref__",  # that a finished room is freed can be watched (tests/bots/test_memory)
    )

    def __init__(
        self,
        code: str,
        options: RoomOptions,
        *,
        journal: JournalOf[Self],
        clock: Callable[[], float],
        seed: int,
        host_token_hash: str,
        resume_buffer: int,
        listeners: list[ListenerOf[Self]] | None = None,
        max_spectators: int = 1000,
        presence_interval: float = 0.0,
        chat_limits: chat.Limits | None = None,
    ) -> None:
        self.code = code
        self.options = options
        self.journal: JournalOf[Self] = journal
        self.clock = clock
        self.seed = seed  # drawn when the room is created, so storage knows it from the start
        self.listeners: list[ListenerOf[Self]] = list(listeners or [])
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

    def to_act(self) -> int | None:
        """The seat whose turn it is while the game is played, else None."""
        game = self.game
        if self.status != PLAYING or game is None or is_over(game):
            return None
        return game.current

    def check_open(self) -> None:
        """Refuse anything but reading the info of a room that cannot be played here."""
        if self.status == INCOMPATIBLE:
            raise RoomError("incompatible", self.notice or "this game cannot continue", 409)
        if self.status == MOVED:
            raise RoomError("moved", "this table moved to another server; reconnect", 503)

    def connections(self) -> Iterator[Connection]:
        yield from self.spectators
        for seat in self.seats:
            if seat.conn is not None:
                yield seat.conn

    def new_game(self) -> Game:
        return new_game_from(self.seed, self.options)

    def replay(self, actions: Iterable[tuple[int, Action]]) -> Game:
        """The game after `actions` from the start: randomness is state, so this is exact."""
        game = self.new_game()
        for seat, action in actions:
            apply(game, action, seat)
        return game

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

    async def notify(self: Self, events: Sequence[Event]) -> None:
        for listener in list(self.listeners):
            try:
                await listener(self, events)
            except Exception:
                log.exception("listener failed in room %s", self.display_code,
                              extra={"room": self.display_code})

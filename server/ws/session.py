"""One socket's conversation with a room: hello, then acts and pings; every refusal coded."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Collection

from server.bots.hint_requests import Hints
from server.config import Settings
from server.metrics import Metrics
from server.rooms import Connection, Room, RoomError, chat, outgoing, timeouts
from server.rooms.ratelimit import SlidingWindow
from server.rooms.stages import Stages, timing

from .frames import (
    Act,
    Back,
    Chat,
    FrameError,
    Hello,
    Hint,
    Mute,
    Ping,
    parse,
    too_large_texts,
)

log = logging.getLogger(__name__)


class Session:
    # One per socket: slots, not a dict of its own (~60 bytes a socket).
    __slots__ = ("room", "muted", "hints", "_hinting", "address", "metrics", "conn",
                 "max_frame", "budget", "greeted", "received", "staged")

    def __init__(
        self, room: Room, settings: Settings, clock: Callable[[], float],
        metrics: Metrics | None = None, address: str | None = None,
        hints: Hints | None = None, muted: Collection[int] = (),
    ) -> None:
        self.room = room
        # Accounts an operator muted at every table (server/admin/; kept up to date there).
        self.muted = muted
        self.hints = hints  # None: this server gives no hints
        # Hints being thought, kept alive; made at the first hint (most sockets ask none).
        self._hinting: set[asyncio.Task[None]] | None = None
        self.address = address  # the client's, for the spectators' chat and the hint limits
        self.metrics = metrics
        self.conn = Connection(settings.WS_OUTBOX)
        self.max_frame = settings.WS_MAX_FRAME
        self.budget = SlidingWindow(settings.WS_FLOOD_MESSAGES, settings.WS_FLOOD_WINDOW, clock)
        self.greeted = False
        self.received = 0.0  # when the frame being handled was read (perf_counter)
        # Benchmark timing of each accepted action's stages (STAGE_TIMING).
        self.staged = metrics.staged if metrics is not None and settings.STAGE_TIMING else None

    def error(self, code: str, message: str, frame_id: str | int | None = None) -> None:
        self.conn.send_json(outgoing.error(frame_id, code, message))
        if self.metrics is not None and self.metrics.socket_refusal is not None:
            self.metrics.socket_refusal(code, self.address)

    async def receive(self, text: str) -> bool:
        """Handle one client frame; False when the socket must now close."""
        self.received = time.perf_counter()
        if len(text) > self.max_frame or len(text.encode()) > self.max_frame:
            error, _ = too_large_texts(self.max_frame)
            self.conn.send(error)
            self.conn.close("too_large", 1009)
            return False
        if not self.budget.hit():
            self.error("flood", "too many frames; slow down")
            self.conn.close("flood", 1008)
            return False
        try:
            frame = parse(text)
        except FrameError as e:
            (self.refuse if e.act else self.error)(e.code, e.message, e.id)
            return True
        if isinstance(frame, Ping):
            self.conn.send_json(outgoing.PONG)
        elif isinstance(frame, Hello):
            await self.hello(frame)
        elif isinstance(frame, Act):
            await self.act(frame)
        elif isinstance(frame, Hint):
            # Thought in a bot worker within BOT_DEADLINE of now: the socket reads on
            # meanwhile (the player may act; the hint then comes back `stale`).
            task = asyncio.create_task(self.hint(frame))
            if self._hinting is None:
                self._hinting = set()
            self._hinting.add(task)
            task.add_done_callback(self._hinting.discard)
        else:
            await self.talk(frame)
        return True

    async def hello(self, frame: Hello) -> None:
        if self.greeted:
            self.error("malformed", "hello was already received")
            return
        try:
            await self.room.attach(self.conn, frame.token, frame.v)
        except RoomError as e:
            self.error(e.code, e.message)
            if e.code == "moved":  # handed to another instance meanwhile: go there
                self.conn.close("moved", 1012)
            return
        self.greeted = True
        if self.conn.seat is None:  # a spectator: who it is at this table, and its token
            chat.greet(self.room, self.conn, frame.watcher, self.address)

    async def talk(self, frame: Chat | Mute | Back) -> None:
        """Chat, mute and back: after hello; they share the frame budget with the rest."""
        frame_id = frame.id if isinstance(frame, Chat) else None
        if not self.greeted:
            self.error("malformed", "send hello first", frame_id)
            return
        try:
            if isinstance(frame, Chat):
                if self.muted and self.conn.seat is not None and (
                        self.room.seats[self.conn.seat].account_id in self.muted):
                    raise RoomError("muted", "an operator muted your chat on this server", 403)
                # Acknowledged once durable; refused (`unavailable`) if it cannot be.
                await chat.post(self.room, self.conn, frame.text, frame.reaction, self.address)
                self.conn.send_json(outgoing.ack(frame.id, self.room.v))
            elif isinstance(frame, Mute):
                chat.mute(self.room, self.conn, frame.author, frame.muted)
            elif self.conn.seat is None:
                self.error("forbidden", "spectators have no seat to take back")
            else:
                await timeouts.come_back(self.room, self.conn.seat)
        except RoomError as e:
            self.error(e.code, e.message, frame_id)

    async def act(self, frame: Act) -> None:
        started = time.perf_counter()
        if not self.greeted:
            self.refuse("malformed", "send hello first", frame.id)
            return
        seat = self.conn.seat
        if seat is None:
            self.refuse("forbidden", "spectators cannot act", frame.id)
            return
        stages = None if self.staged is None else Stages(self.staged, self.received)
        self.conn.hold()  # the action's patch and its ack leave in one write
        try:
            with timing(stages):  # a shared no-op unless STAGE_TIMING
                v = await self.room.act(seat, frame.action, frame.v)
        except RoomError as e:
            self.refuse(e.code, e.message, frame.id)
            return
        else:
            self.conn.send_json(outgoing.ack(frame.id, v))
        finally:
            self.conn.release()
        if self.metrics is not None:
            self.metrics.accepted(time.perf_counter() - started)

    async def hint(self, frame: Hint) -> None:
        """What the expert would do, for this seat only (server.bots.hint); never an act."""
        if not self.greeted:
            self.error("malformed", "send hello first", frame.id)
            return
        if self.hints is None:
            self.error("hints_off", "this server gives no hints", frame.id)
            return
        try:
            hint = await self.hints.ask(self.room, self.conn.seat, self.address)
        except RoomError as e:
            self.error(e.code, e.message, frame.id)
            return
        except Exception:  # a worker that died, a bug: logged, and the player told
            log.exception("hint for seat %s of room %s failed", self.conn.seat, self.room.code)
            self.error("unavailable", "no hint could be thought; try again", frame.id)
            return
        self.conn.send_json(outgoing.hint(frame.id, hint["action"], hint["path"], hint["why"],
                                          hint["after"]))

    def refuse(self, code: str, message: str, frame_id: str | int | None) -> None:
        """An act refused: the error frame, and the count by code."""
        self.error(code, message, frame_id)
        if self.metrics is not None:
            self.metrics.refused(code)

"""The registry of live rooms: create (rate-limited), find, list, expire, say goodbye."""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from typing import Any

from server.config import Settings

from . import chat, late
from .codes import display, new_code, normalize
from .errors import RoomError, forbidden, not_found
from .options import RoomOptions
from .ratelimit import RateLimit
from .room import FINISHED, PLAYING, WAITING, Journal, Listener, NullJournal, Room
from .seat import hash_token, new_token

log = logging.getLogger(__name__)

LISTING_LIMIT = 50


class RoomManager:
    def __init__(
        self,
        settings: Settings,
        journal: Journal | None = None,
        clock: Callable[[], float] = time.monotonic,
        listeners: list[Listener] | None = None,
    ) -> None:
        self.settings = settings
        self.journal: Journal = journal or NullJournal()
        self.clock = clock
        # Listeners every new room starts with (e.g. the bots driver).
        self.listeners: list[Listener] = list(listeners or [])
        self.rooms: dict[str, Room] = {}
        self.create_limit = RateLimit(settings.ROOM_CREATE_RATE, 60, clock)

    def _seed(self) -> int:
        fixed = self.settings.TEST_FIXED_SEED
        return fixed if fixed is not None else secrets.randbits(64)

    def build(self, code: str, options: RoomOptions, seed: int, host_token_hash: str) -> Room:
        """A room wired to this manager's journal, clock and listeners (not yet registered)."""
        return Room(
            code, options, journal=self.journal, clock=self.clock, seed=seed,
            host_token_hash=host_token_hash, resume_buffer=self.settings.RESUME_BUFFER,
            listeners=self.listeners, max_spectators=self.settings.MAX_SPECTATORS,
            presence_interval=self.settings.PRESENCE_INTERVAL,
            chat_limits=chat.Limits(self.settings.CHAT_RATE, self.settings.CHAT_ADDRESS_RATE,
                                    self.settings.CHAT_WINDOW),
        )

    async def create(
        self, options: RoomOptions, client: str | None, bots: Sequence[str | None] = ()
    ) -> tuple[Room, str]:
        """A new waiting room and its host token (returned here only: the room keeps a hash),
        with `bots` (a level or None per seat) seated. It exists once it is durable: if the
        journal cannot take it, RoomError `unavailable` and there is no room. `client` is
        the address the creation limit counts; None: a table quick play opens (its seekers
        were counted by their own limits)."""
        if client is not None and not await self.allow_create(client):
            raise RoomError("rate_limited", "too many rooms created; wait a minute", 429)
        code = new_code()
        while not await self.reserve(code):  # 40 bits: a collision is rare but possible
            code = new_code()
        host_token = new_token()
        room = self.build(code, options, self._seed(), hash_token(host_token))
        for index, level in enumerate(bots[:len(room.seats)]):
            room.seat_bot(index, level)
        if any(bots):
            room.commit([])
        self.rooms[code] = room  # taken while the journal writes: no other room gets it
        log.info("room %s created", room.display_code, extra={"room": room.display_code})
        try:
            await room.save("room_created")
        except RoomError:
            del self.rooms[code]
            await self.unreserve(code)
            raise
        return room, host_token

    async def rematch(
        self, room: Room, token: str, client: str
    ) -> tuple[Room, str | None, str | None]:
        """The next game at this table, created once by the first player who asks.

        Everyone stays seated: the same options, the same bots and the same players (with
        their names) in the same seats, and the same host. Each player gets a new seat token
        by asking here with their old one (the tokens wait in the old room's memory).
        Returns (room, host token for the first caller only, the caller's new seat token;
        None if it was lost in a restart: the player then watches and may be seated again).
        """
        async with room.lock:
            if room.status != FINISHED:
                raise RoomError("not_finished", "a rematch follows a finished game", 409)
            seat = room.seat_of(token)
            if seat is None:
                raise forbidden("only a player of this table can ask for a rematch")
            if room.rematch is not None:
                return self.get(room.rematch), None, room.rematch_tokens.get(seat)
            new, host_token = await self.create(
                room.options, client, bots=[old.bot for old in room.seats]
            )
            async with new.lock:
                tokens = new.seat_players_of(room)
                try:
                    await new.save("seats_changed")
                except RoomError:
                    new.unseat_players(list(tokens))
                    raise
                new.commit([])
            room.link_rematch(new, tokens)
        return new, host_token, room.rematch_tokens.get(seat)

    async def allow_create(self, client: str) -> bool:
        """Whether `client` may create another room now (counts this attempt)."""
        return self.create_limit.hit(client)

    async def reserve(self, code: str) -> bool:
        """Whether a new room may take `code`."""
        return code not in self.rooms

    async def unreserve(self, code: str) -> None:
        """The room reserved under `code` was not created after all."""

    def find(self, code: str) -> Room | None:
        canonical = normalize(code)
        return None if canonical is None else self.rooms.get(canonical)

    def get(self, code: str) -> Room:
        room = self.find(code)
        if room is None:
            raise not_found()
        return room

    def listing(self) -> dict[str, list[dict[str, Any]]]:
        """Public rooms only: waiting with a free seat, and games being played."""
        rooms = sorted(self.rooms.values(), key=lambda r: r.created_at, reverse=True)
        open_, live = [], []
        for room in rooms:
            if not room.options.public:
                continue
            if room.status == WAITING and not all(s.filled for s in room.seats):
                open_.append(room.info())
            elif room.status == PLAYING:
                live.append(room.info())
        return {"open": open_[:LISTING_LIMIT], "live": live[:LISTING_LIMIT]}

    async def public_listing(self) -> dict[str, list[dict[str, Any]]]:
        """The lobby: `listing()` here; every instance's public rooms in cluster mode."""
        return self.listing()

    def health(self) -> dict[str, str]:
        """What /healthz adds about the parts this manager depends on."""
        return {}

    def connection_count(self) -> int:
        return sum(1 for room in self.rooms.values() for _ in room.connections())

    async def sweep(self) -> list[str]:
        """Drop expired rooms: idle waiting rooms, old finished rooms, and playing (or
        incompatible) rooms nobody has been connected to for ROOM_IDLE_TTL (a turn-based
        game being played never expires). Waiting and
        playing rooms are journaled as abandoned. Returns the dropped codes."""
        now, idle, done = self.clock(), self.settings.ROOM_IDLE_TTL, self.settings.FINISHED_ROOM_TTL
        dropped = []
        for code, room in list(self.rooms.items()):
            if room.status == FINISHED:
                expired = room.finished_at is not None and now - room.finished_at >= done
            elif room.status == WAITING:
                expired = now - room.touched_at >= idle
            elif room.options.turn_based and room.status == PLAYING:
                expired = False  # a game over days: kept until it ends (or is ended)
            else:
                expired = now - room.touched_at >= idle and not any(room.connections())
            if expired:
                room.close_all("expired")
                del self.rooms[code]
                dropped.append(code)
                if room.status in (WAITING, PLAYING):
                    await room.tell_journal("abandoned")
        return dropped

    async def abandon_late(self, room: Room, token: str) -> None:
        """A player ends a turn-based game whose player to act is late (server.rooms.late):
        recorded as abandoned with the standings it reached, like an expired room."""
        async with room.lock:
            seat, _ = late.check_late(room, token)
            room.commit([{"type": "abandoned", "seat": seat}])
            room.close_all("abandoned")
            self.forget(room)
            await room.tell_journal("abandoned")
        log.info("room %s ended as abandoned", room.display_code,
                 extra={"room": room.display_code})

    async def discard(self, room: Room) -> None:
        """Close a room this server made and nobody has played in (a tournament's table
        that another instance opened meanwhile, server.tournaments): no game is kept, the
        journal's `discarded` closes it."""
        async with room.lock:
            room.close_all("abandoned")
            self.forget(room)
            await room.tell_journal("discarded")
        log.info("room %s discarded", room.display_code, extra={"room": room.display_code})

    def forget(self, room: Room) -> bool:
        """Stop holding `room` (another instance serves it now): False if this manager holds
        no such room, or another one under its code."""
        if self.rooms.get(room.code) is not room:
            return False
        del self.rooms[room.code]
        return True

    def restore(self, room: Room) -> None:
        """Register a room rebuilt from storage under its old code."""
        if room.code in self.rooms:
            raise ValueError(f"room {room.code} exists already")
        self.rooms[room.code] = room

    async def run_sweeper(self) -> None:
        while True:
            await asyncio.sleep(self.settings.SWEEP_INTERVAL)
            dropped = await self.sweep()
            for code in dropped:
                log.info("room %s expired", display(code), extra={"room": display(code)})

    async def goodbye(self, reason: str = "restarting", grace: float = 2.0) -> None:
        """Send bye to every socket and give their outboxes a moment to drain."""
        conns = [c for room in self.rooms.values() for c in room.connections()]
        for room in self.rooms.values():
            room.close_all(reason, 1012 if reason == "restarting" else 1000)
        deadline = self.clock() + grace
        while any(not c.outbox.empty() for c in conns) and self.clock() < deadline:
            await asyncio.sleep(0.02)

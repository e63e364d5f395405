"""Quick play on one instance: the lobby sockets it holds, their seeks, and its matcher.

The waiting list is the `seeks` table (server.quickplay.store), shared by every instance.
Each instance, every QUICKPLAY_TICK seconds (and at once when one of its players asks):

1. renews the seeks of the sockets it holds (a closed socket's seek is deleted at once; an
   instance that dies stops renewing, and its seeks leave within SEEK_ALIVE seconds),
   and hands each of them that was seated its table and seat token;
2. runs the matcher (server.quickplay.matcher) over the waiting seeks: claims each table's
   seeks in one transaction (store.lock, store.claim: never two instances for one seek), opens the
   table on this instance, seats them, starts the game, and writes the table to the seeks;
3. sends the lobby list (seeks and open tables) to its lobby sockets when it changed.

An instance that holds no seek and no lobby socket has nothing to do at a tick, so its loop
sleeps until one of its players asks or opens the lobby, and reads nothing meanwhile: a
feature not in use costs nothing. It misses nothing either: another instance's seek is its
own instance's to renew and match (that loop is awake while it holds it), and the list only
lobby sockets see is read again at the first tick after one opens (at once, woken by it).
Dead instances' rows, which the list and the matcher skip anyway, are then deleted by the
next instance that wakes (and before a seek is counted or added, see `seek`).

A seek's row keeps only the hash of its seat token: the token stays with the instance that
holds the player's socket, which hands it over once the row names the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Protocol

from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.config import Settings
from server.db.errors import cancelling
from server.db.models import Seek, utcnow
from server.error_codes import Refusal
from server.jsontext import dumps
from server.rooms import RoomManager, RoomOptions, seating
from server.rooms.crowd import AddressCap
from server.rooms.errors import RoomError
from server.rooms.ratelimit import RateLimit
from server.rooms.seat import hash_token, new_token

from . import frames, store
from .matcher import Seeker, Table, pair, sizes_of

log = logging.getLogger(__name__)

# The clock of a quick-play table, by mode: a real-time table times out a player who went
# away (a stand-in plays on), a turn-based one gives a day a move and three days of bank.
CLOCKS: dict[str, dict[str, int]] = {
    "realtime": {"turn": 60, "bank": 300},
    "turn_based": {"turn": 86400, "bank": 259200},
}


class LobbySocket(Protocol):
    """A lobby socket as quick play sees it."""

    client: str

    def offer(self, text: str) -> None:
        """The newest list, replacing one not yet sent (never waits)."""

    def send(self, text: str) -> None:
        """A frame that must go out, in order (never waits: a socket that cannot keep up
        is closed)."""


@dataclass(slots=True)
class Held:
    """A seek of a socket this instance holds, and the seat token it will hand over."""

    seek_id: int
    token: str
    socket: LobbySocket


@dataclass(slots=True)
class Ask:
    """What a player asked for (validated: server.quickplay.frames.Play)."""

    size: int
    mode: str
    rated: bool
    bots_after: int | None
    join: int | None


@dataclass(slots=True)
class Who:
    """Who asks: an account (id, name) or a guest (its socket's key and the name it gave)."""

    player: str
    name: str
    account_id: int | None = None


Sessions = async_sessionmaker[AsyncSession]


@dataclass
class Quickplay:
    settings: Settings
    manager: RoomManager
    wall: Callable[[], datetime] = utcnow
    sessions: Sessions | None = None  # set once the database is open
    held: dict[int, Held] = field(default_factory=dict)  # seek id -> its socket's
    sockets: set[LobbySocket] = field(default_factory=set)
    listed: str = ""  # the last lobby frame sent
    pairings: int = 0  # tables opened by this instance (bench)
    swept: datetime | None = None  # when dead instances' seeks were last deleted

    def __post_init__(self) -> None:
        self.rate = RateLimit(self.settings.SEEK_RATE, 60, time.monotonic)
        self.passing = asyncio.Lock()  # one matcher pass at a time on this instance
        self.wake = asyncio.Event()
        self.addresses = AddressCap(self.settings.WS_PER_ADDRESS)

    @property
    def alive(self) -> timedelta:
        return timedelta(seconds=self.settings.SEEK_ALIVE)

    # --- sockets --------------------------------------------------------------------

    @contextlib.contextmanager
    def attached(self, socket: LobbySocket) -> Iterator[bool]:
        """While a lobby socket is open; yields False past WS_PER_ADDRESS lobby sockets
        from its address (the caller refuses it)."""
        if not self.addresses.enter(socket.client):
            yield False
            return
        self.sockets.add(socket)
        self.wake.set()  # an idle loop wakes to send it the list
        try:
            if self.listed:
                socket.offer(self.listed)
            yield True
        finally:
            self.sockets.discard(socket)
            self.addresses.leave(socket.client)

    def seek_of(self, socket: LobbySocket) -> Held | None:
        return next((h for h in self.held.values() if h.socket is socket), None)

    # --- asking and leaving ----------------------------------------------------------

    async def seek(self, socket: LobbySocket, who: Who, ask: Ask) -> int:
        """Put the player in the queue; returns the seek's id. Refused: seek_exists (one
        per player), too_many_seeks (per address), quickplay_off (no database)."""
        sessions = self._sessions()
        if self.seek_of(socket) is not None:
            raise Refusal("seek_exists", "you are already waiting for a table")
        if not self.rate.hit(socket.client):
            raise Refusal("too_many_seeks", "too many seeks from this address; wait a minute")
        token = new_token()
        new = store.NewSeek(
            player=who.player, account_id=who.account_id, name=who.name, client=socket.client,
            size=ask.size, mode=ask.mode, rated=ask.rated, bots_after=ask.bots_after,
            join_id=ask.join, token_hash=hash_token(token), instance=self.settings.instance)
        now = self.wall()
        async with sessions() as session, session.begin():
            if self._sweep_due(now):  # the instance was idle: no dead row may count here
                await store.drop_stale(session, now - self.alive)
                self.swept = now
            if await store.count_at(session, socket.client) >= self.settings.SEEKS_PER_ADDRESS:
                raise Refusal("too_many_seeks", "this address has too many seeks waiting")
            rating = (None if who.account_id is None
                      else await store.rating_of(session, who.account_id))
            try:
                seek_id = await store.add(session, new, rating, now)
            except store.SeekExists:
                raise Refusal("seek_exists", "you are already waiting for a table") from None
        self.held[seek_id] = Held(seek_id, token, socket)
        self.wake.set()
        return seek_id

    async def leave(self, socket: LobbySocket) -> bool:
        """The socket's seek leaves the queue (cancelled, or the socket closed)."""
        held = self.seek_of(socket)
        if held is None:
            return False
        del self.held[held.seek_id]
        async with self._sessions()() as session, session.begin():
            await store.remove(session, [held.seek_id])
        self.wake.set()
        return True

    def _sessions(self) -> Sessions:
        if self.sessions is None:
            raise Refusal("quickplay_off", "quick play needs the server's database")
        return self.sessions

    # --- the loop --------------------------------------------------------------------

    @property
    def idle(self) -> bool:
        """No seek of this instance's and no lobby socket: a tick would have nothing to do."""
        return not self.held and not self.sockets

    async def run(self) -> None:
        while True:
            if self.idle:  # until a player asks or opens the lobby (seek, attached)
                await self.wake.wait()
            else:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.wake.wait(), self.settings.QUICKPLAY_TICK)
            self.wake.clear()
            try:
                await self.tick()
            except (SQLAlchemyError, OSError) as exc:
                if cancelling():  # stopped mid-query: the error is the cancellation's
                    raise
                log.warning("quick play: the database did not answer (%r)", exc)

    async def tick(self) -> None:
        """One read of the waiting seeks makes the lobby list and the matcher's input; the
        matcher writes (claims) only when it makes a table."""
        await self.renew()
        rows = await self.waiting()
        if await self.match(rows):
            await self.renew()  # hand over at once the tables this pass opened
            rows = await self.waiting()
        await self.publish(rows)

    async def renew(self) -> None:
        """Keep our seeks alive, drop the dead ones, hand over the seated ones."""
        if self.sessions is None:
            return
        now = self.wall()
        # Dead instances' rows are deleted every SEEK_ALIVE / 2 (the matcher and the list
        # skip them anyway): an idle instance writes nothing at each tick.
        sweep = self._sweep_due(now)
        if not self.held and not sweep:
            return
        async with self.sessions() as session, session.begin():
            done = await store.renew(session, list(self.held), now)
            if sweep:
                await store.drop_stale(session, now - self.alive)
                self.swept = now
            await store.remove(session, [row.id for row in done])
        for row in done:
            held = self.held.pop(row.id, None)
            if held is not None and row.room_code is not None and row.seat is not None:
                held.socket.send(dumps(frames.seated(row.room_code, row.seat, held.token)))

    def _sweep_due(self, now: datetime) -> bool:
        return self.swept is None or now - self.swept >= self.alive / 2

    async def match(self, rows: list[Seek] | None = None) -> int:
        """One matcher pass over every instance's waiting seeks (`rows`, read now if not
        given); returns the tables opened."""
        if self.sessions is None:
            return 0
        async with self.passing:
            if rows is None:
                rows = await self.waiting()
            now = self.wall()
            alive = now - self.alive
            found = {row.id: row for row in rows}
            tables = pair([seeker(row, now) for row in rows])
            if not tables:
                return 0
            claimed: list[tuple[str, Table]] = []
            async with self.sessions() as session, session.begin():
                for table in tables:
                    claim = uuid.uuid4().hex
                    async with session.begin_nested() as part:
                        if (await store.lock(session, table.seekers)
                                and await store.claim(session, table.seekers, claim, alive, now)):
                            claimed.append((claim, table))
                        else:
                            await part.rollback()
            for claim, table in claimed:
                await self.open_table(claim, table, found)
            self.pairings += len(claimed)
            return len(claimed)

    async def open_table(self, claim: str, table: Table, rows: dict[int, Seek]) -> None:
        assert self.sessions is not None
        first = rows[table.seekers[0]]
        options = RoomOptions.from_dict({
            "players": table.size, "mode": first.mode, "rated": first.rated,
            "clock": CLOCKS[first.mode], "public": False})
        level = self.settings.TAKEOVER_LEVEL
        try:
            room, host = await self.manager.create(
                options, None, [None] * len(table.seekers) + [level] * table.bots)
            await seating.seat_matched(room, [
                (rows[i].name, rows[i].token_hash, rows[i].account_id) for i in table.seekers])
            await seating.start(room, host)
        except RoomError as exc:
            log.warning("quick play: a table could not be opened (%s)", exc)
            async with self.sessions() as session, session.begin():
                await store.unclaim(session, claim)
            return
        async with self.sessions() as session, session.begin():
            seats = {seek_id: index for index, seek_id in enumerate(table.seekers)}
            await store.seated(session, claim, seats, room.code)
        log.info("quick play: table %s for %d players", room.display_code, len(table.seekers),
                 extra={"room": room.display_code})

    # --- the lobby list --------------------------------------------------------------

    async def waiting(self) -> list[Seek]:
        if self.sessions is None:
            return []
        now = self.wall()
        async with self.sessions() as session:
            return await store.waiting(session, now - self.alive, now)

    async def publish(self, rows: list[Seek]) -> None:
        if not self.sockets:
            self.listed = ""
            return
        text = dumps(await self.listing(rows))
        if text == self.listed:
            return
        self.listed = text
        for socket in list(self.sockets):
            socket.offer(text)

    async def listing(self, rows: list[Seek]) -> dict[str, Any]:
        """The lobby frame: the seeks waiting (those who joined one are shown in it) and
        the public tables waiting for players."""
        listed = await self.manager.public_listing()
        return frames.lobby(rows, listed.get("open", []), CLOCKS)


def seeker(row: Seek, now: datetime) -> Seeker:
    return Seeker(
        id=row.id, sizes=sizes_of(row.size), mode=row.mode, rated=row.rated,
        rating=row.rating if row.rating is not None else 0,
        waited=(now - row.created_at).total_seconds(),
        bots_after=row.bots_after, join=row.join_id)


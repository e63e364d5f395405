"""Which rooms this instance owns, and how rooms move in and out of it.

Claim (a request for a room arrives here, or the room has no owner): take the Redis lease
(asking the holder to hand over, if there is one), then raise the room's epoch in
PostgreSQL and read its journal in the same transaction, and rebuild it. From the commit
of that transaction on, the previous owner's writes are refused, and all it wrote before
is in what we read: nothing acknowledged is lost, and nothing is acknowledged twice.

Release (another instance asks for the room, or this one shuts down): under the room lock,
so no write is in flight, mark the room moved, tell its sockets to reconnect (bye "moved")
and give the lease back. Drop (the lease was lost, e.g. after a freeze): the same without
touching the lease, which is someone else's now. Fenced (a journal write was refused because
another instance claimed the room since, e.g. while this one was frozen): the room stops
here at once, before anything else reaches its sockets, and the lease is given back if we
still hold it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable
from datetime import timedelta
from functools import partial
from typing import TYPE_CHECKING

from redis.asyncio import Redis
from redis.exceptions import RedisError
from sqlalchemy import text

from server.db import store
from server.db.models import utcnow
from server.persist import RoomJournal, restore_rooms
from server.rooms import Room, RoomError, RoomManager

from .identity import Identity
from .leases import PREFIX, Leases

if TYPE_CHECKING:
    from server.persist import Database

log = logging.getLogger(__name__)
# Its own generator: jitter drawn from the global one would move the state that seeded code
# (and Hypothesis, which checks it) relies on.
_jitter = random.Random()

# A room stays at least this long where it was claimed before it moves again, so two
# instances that both receive requests for it (while the proxy's view changes) do not
# bounce it back and forth.
MIN_HOLD = 1.0
REASK = 0.5  # seconds between two handoff requests to the same holder
GONE_CHECK = 0.2  # an instance silent this long on its handoff channel is taken for dead


def handoff_channel(instance: str) -> str:
    return f"{PREFIX}handoff:{instance}"


def unavailable(message: str) -> RoomError:
    return RoomError("unavailable", message, 503)


class Ownership:
    def __init__(
        self,
        manager: RoomManager,
        redis: Redis,
        instance: str,
        lease_ttl: float,
        publish_lobby: Callable[[], Awaitable[None]],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.manager = manager
        self.publish_lobby = publish_lobby
        self.redis = redis
        self.instance = instance
        self.ttl = lease_ttl
        self.clock = clock
        self.leases = Leases(redis, instance, lease_ttl)
        self.identity = Identity(redis, instance, lease_ttl)
        self.epochs: dict[str, int] = {}  # room code -> our epoch, for every room we own
        self.claimed_at: dict[str, float] = {}
        self.redis_ok = True
        self.database: Database | None = None
        self.journal: RoomJournal | None = None
        self._claims: dict[str, asyncio.Future[None]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._handoffs: dict[str, asyncio.Future[None]] = {}  # releases under way, by code
        self._fenced: set[asyncio.Task[None]] = set()  # clean-ups of rooms fenced out
        self._orphans: tuple[set[str], set[str]] = (set(), set())  # the last two scans
        # instance -> (since when nobody hears its channel, when that was last seen)
        self._silent: dict[str, tuple[float, float]] = {}

    def fence(self, code: str) -> int | None:
        """The epoch to stamp on a journal write of room `code` (None: not ours)."""
        return self.epochs.get(code)

    # --- lifecycle -------------------------------------------------------------------

    async def take_identity(self) -> None:
        """Before anything else at start: refuse (InstanceTaken) to run under the id of a
        live instance. With Redis down, start anyway: the renewals take the id later."""
        try:
            await self.identity.take()
        except RedisError as exc:
            log.warning("redis unreachable at start (%r): INSTANCE_ID not checked yet", exc)

    def start(self, database: Database, journal: RoomJournal) -> None:
        self.database, self.journal = database, journal
        database.journal.on_fenced = self.fenced
        self._tasks = [
            asyncio.create_task(self._renew_forever(), name="cluster-renew"),
            asyncio.create_task(self._listen_for_handoffs(), name="cluster-handoffs"),
            asyncio.create_task(self._adopt_orphans_forever(), name="cluster-orphans"),
        ]

    async def stop(self) -> None:
        """Hand every room over (their sockets reconnect to another instance), then stop."""
        for code in list(self.manager.rooms):
            with contextlib.suppress(Exception):
                await self.release(code, hold=False)
        tasks = [*self._tasks, *self._handoffs.values(), *self._fenced]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks = []
        with contextlib.suppress(RedisError):
            await self.identity.release()

    # --- rooms coming in -------------------------------------------------------------

    def new_room(self, code: str) -> None:
        """A room created here under a fresh lease: epoch 1 is written with its creation."""
        self.epochs[code] = 1
        self.claimed_at[code] = self.clock()

    async def ensure(self, code: str) -> None:
        """Make this instance the owner of room `code` if it exists (one claim at a time per
        code). Raises RoomError (503) when that cannot be done now."""
        if code in self.manager.rooms:
            return
        claim = self._claims.get(code)
        if claim is None:
            claim = self._claims[code] = asyncio.ensure_future(self._claim(code))
            claim.add_done_callback(lambda _: self._claims.pop(code, None))
        await asyncio.shield(claim)

    async def _claim(self, code: str) -> None:
        try:
            if not await self._take_lease(code):
                return
        except RedisError as exc:
            self.redis_ok = False
            raise unavailable("the cluster's coordinator is unreachable; retry soon") from exc
        try:
            await self._load(code)
        except BaseException as exc:
            self.epochs.pop(code, None)
            with contextlib.suppress(RedisError):
                await self.leases.release(code)
            if isinstance(exc, RoomError | asyncio.CancelledError):
                raise
            log.warning("claim of room %s failed: %r", code, exc)
            raise unavailable("this table cannot be loaded right now; retry soon") from exc
        if code not in self.manager.rooms:  # no such room: nothing to own
            with contextlib.suppress(RedisError):
                await self.leases.release(code)

    async def _take_lease(self, code: str) -> bool:
        """Wait for the lease of `code`, asking its holder to let go. False: it is ours
        already and the room is here (someone else's claim finished first)."""
        deadline = self.clock() + self.ttl + 2 * MIN_HOLD
        asked: tuple[str, float] | None = None
        while not await self.leases.acquire(code):
            holder = await self.leases.holder(code)
            if holder == self.instance:
                return code not in self.manager.rooms
            # Ask the holder to let go, and ask again now and then: a request published while
            # it was resubscribing (after a Redis restart) is lost.
            if holder is not None and await self._gone(holder) \
                    and await self.leases.steal(code, holder):
                return True
            if holder is not None and (asked is None or asked[0] != holder
                                       or self.clock() - asked[1] > REASK):
                if asked is None:
                    await self._check_database()
                await self.redis.publish(handoff_channel(holder), code)
                asked = (holder, self.clock())
            if self.clock() > deadline:
                raise RoomError("busy", "this table is moving between servers; retry soon", 503)
            await asyncio.sleep(0.05)
        return True

    async def _check_database(self) -> None:
        """Raise RoomError `unavailable` unless PostgreSQL answers: a claim that could not
        load the room must not first make its owner let it go (its players would be
        sent away, and nobody would have the room)."""
        assert self.database is not None
        try:
            async with self.database.sessions() as session:
                await session.execute(text("SELECT 1"))
        except Exception as exc:
            log.warning("claim refused: the database is unreachable (%r)", exc)
            raise unavailable("this table cannot be loaded right now; retry soon") from exc

    async def _load(self, code: str) -> None:
        """Raise the epoch and read the journal in one transaction, then rebuild the room."""
        assert self.database is not None and self.journal is not None
        async with self.database.sessions() as session, session.begin():
            epoch = await store.claim_room(session, code)
            if epoch is not None:
                stored = await store.load_unfinished_room(session, code)
            else:  # a finished game stays on show for FINISHED_ROOM_TTL, wherever asked for
                since = utcnow() - timedelta(seconds=self.manager.settings.FINISHED_ROOM_TTL)
                finished = await store.load_finished_rooms(session, since, code)
                stored = finished[0] if finished else None
        if stored is None:
            return
        if epoch is not None:  # a finished room writes nothing: it needs no epoch
            self.epochs[code] = epoch
        self.claimed_at[code] = self.clock()
        await restore_rooms(self.manager, self.journal, [stored])
        log.info("claimed room %s (epoch %s)", code, epoch)

    async def _gone(self, instance: str) -> bool:
        """Whether `instance` is dead rather than slow: nobody has listened on its handoff
        channel (Redis sees a killed process's connection close at once) for GONE_CHECK,
        as seen by checks less than GONE_CHECK apart. A silence seen after a longer gap
        starts anew: the instance may have been heard in between (it resubscribed, or a
        brief hiccup ended), and a live one must not lose its rooms to two brief silences.
        A frozen instance keeps its connection: its leases run out."""
        listening = await self.redis.pubsub_numsub(handoff_channel(instance))
        now = self.clock()
        if listening and listening[0][1] > 0:
            self._silent.pop(instance, None)
            return False
        since, seen = self._silent.get(instance, (now, now))
        if now - seen >= GONE_CHECK:
            since = now
        self._silent[instance] = (since, now)
        return now - since >= GONE_CHECK

    async def _dead(self, instance: str) -> bool:
        """`_gone`, asked until it can tell (for a caller that asks once in a while): True
        once `instance` has been silent GONE_CHECK, False once it is heard or after a few
        rounds without a verdict (its leases run out then)."""
        for _ in range(8):
            if await self._gone(instance):
                return True
            if instance not in self._silent:
                return False
            await asyncio.sleep(GONE_CHECK / 4)
        return False

    # --- rooms going out -------------------------------------------------------------

    def _handoff_done(self, code: str, _: asyncio.Future[None]) -> None:
        self._handoffs.pop(code)

    async def release(self, code: str, *, hold: bool = True) -> None:
        """Hand room `code` over: its sockets reconnect (through the proxy) to the next owner."""
        if hold:
            wait = self.claimed_at.get(code, 0.0) + MIN_HOLD - self.clock()
            if wait > 0:
                await asyncio.sleep(wait)
        await self.drop(code)
        await self.leases.release(code)
        log.info("handed room %s over", code)

    async def drop(self, code: str) -> None:
        """Stop serving room `code` here. Under its lock, so no journal write is in flight."""
        room = self.manager.rooms.get(code)
        if room is not None:
            async with room.lock:
                self.manager.forget(room)
                room.move_away()
        self.epochs.pop(code, None)
        self.claimed_at.pop(code, None)
        if self.journal is not None:
            self.journal.started_at.pop(code, None)

    def fenced(self, code: str, epoch: int) -> None:
        """A write of room `code` under `epoch` was refused: another instance claimed the room
        since. Called by the journal's writer before the refused caller resumes, so the room
        is moved (its sockets told bye "moved") before that caller could tell them anything."""
        room = self.manager.rooms.get(code)
        if room is None or self.epochs.get(code) != epoch:
            return  # dropped already (or an older incarnation of the room's write)
        self.manager.forget(room)
        log.warning("room %s was claimed by another instance (epoch %s is stale); dropping it",
                    code, epoch)
        room.move_away()
        task = asyncio.create_task(self._forget_fenced(code, epoch, room))
        self._fenced.add(task)
        task.add_done_callback(self._fenced.discard)

    async def _forget_fenced(self, code: str, epoch: int, room: Room) -> None:
        """The rest of dropping a fenced room, once no write of it is in flight (until then
        its writes keep the stale epoch, so they are refused too)."""
        async with room.lock:
            pass
        if self.epochs.get(code) != epoch:
            return  # claimed here again meanwhile
        self.epochs.pop(code, None)
        self.claimed_at.pop(code, None)
        if self.journal is not None:
            self.journal.started_at.pop(code, None)
        with contextlib.suppress(RedisError):
            await self.leases.release(code)

    # --- background duties -----------------------------------------------------------

    async def _renew_forever(self) -> None:
        """Renew our leases (and publish our part of the lobby); drop the rooms we lost."""
        while True:
            await asyncio.sleep(self.ttl / 3)
            try:
                # The rooms as they were when their leases were checked: by the time the
                # answer is acted on, one may have been handed over, or claimed here anew.
                held = dict(self.manager.rooms)
                # Claims under way hold leases too, before their rooms are registered.
                lost, missing = await self.leases.renew(sorted({*held, *self._claims}))
                lost |= await self._retake(missing, held)
                await self.publish_lobby()
                if not await self.identity.renew():
                    log.error("another instance runs as INSTANCE_ID=%s: each needs its own",
                              self.instance)
            except RedisError as exc:
                if self.redis_ok:
                    log.warning("redis unreachable (%r): rooms here play on, none move", exc)
                self.redis_ok = False
                continue
            if not self.redis_ok:
                log.warning("redis reachable again")
            self.redis_ok = True
            for code in lost:
                # Only a room registered then and still: a claim under way was waiting for
                # that lease (had it finished meanwhile, dropping would lose the room it just
                # claimed, and the request waiting for it would find none); the next round
                # checks whatever it registered.
                if code not in held or not self._unchanged(code, held):
                    continue
                log.warning("lease of room %s taken by another instance; dropping it", code)
                await self.drop(code)

    def _unchanged(self, code: str, held: dict[str, Room]) -> bool:
        """Whether room `code` is here as it was when its lease was checked (`held`): the
        same room still registered, or a claim of it still under way."""
        if code in held:
            return self.manager.rooms.get(code) is held[code]
        return code in self._claims and code not in self.manager.rooms

    async def _retake(self, missing: set[str], held: dict[str, Room]) -> set[str]:
        """Take back the missing leases of rooms whose epoch in PostgreSQL is still ours (Redis
        lost them: it restarted empty); returns the others, lost (they expired while we were
        frozen, and another instance claimed the room since). A claim under way has no epoch
        yet: its lease is taken back if free (its claim raises the epoch anyway). A room
        handed over since it was checked (its lease given back, not lost) is not taken
        back: its next owner is waiting for that lease."""
        missing = {code for code in missing if self._unchanged(code, held)}
        if not missing:
            return set()
        assert self.database is not None
        ours = {code: self.epochs.get(code) for code in missing}
        try:
            async with self.database.sessions() as session:
                stored = await store.owner_epochs(
                    session, [c for c, e in ours.items() if e is not None])
        except Exception as exc:  # cannot tell: keep serving, try again next round
            log.warning("cannot check the epochs of rooms with missing leases: %r", exc)
            return set()
        lost = set()
        for code, epoch in ours.items():
            if not self._unchanged(code, held):
                continue  # handed over or claimed since the check: not ours to take back
            if epoch is not None and stored.get(code, epoch) != epoch \
                    or not await self.leases.acquire(code):
                lost.add(code)
        return lost

    async def _listen_for_handoffs(self) -> None:
        """Another instance received a request for one of our rooms: hand it over."""
        while True:
            try:
                async with self.redis.pubsub() as pubsub:
                    await pubsub.subscribe(handoff_channel(self.instance))
                    async for message in pubsub.listen():
                        if message["type"] != "message":
                            continue
                        code = message["data"].decode()
                        if code in self.manager.rooms and code not in self._handoffs:
                            handoff = asyncio.ensure_future(self.release(code))
                            self._handoffs[code] = handoff
                            handoff.add_done_callback(partial(self._handoff_done, code))
            except RedisError as exc:
                # Back soon: others take an instance missing from its channel for dead.
                log.debug("handoff channel lost (%r); resubscribing", exc)
                await asyncio.sleep(GONE_CHECK / 2)

    async def _adopt_orphans_forever(self) -> None:
        """Claim unfinished rooms that no instance holds (their owner died) and that stayed
        so for three rounds, so that bots and stand-ins go on even when nobody reconnects."""
        while True:
            await asyncio.sleep(self.ttl * _jitter.uniform(0.8, 1.2))
            try:
                await self._adopt_orphans()
            except Exception as exc:
                log.debug("orphan scan failed: %r", exc)

    async def _adopt_orphans(self) -> None:
        assert self.database is not None
        async with self.database.sessions() as session:
            codes = await store.unfinished_codes(session)
        codes = [c for c in codes if c not in self.manager.rooms]
        holders = await self.leases.holders(codes)
        orphans = {code for code, holder in zip(codes, holders, strict=True) if holder is None}
        ready = orphans & self._orphans[0] & self._orphans[1]
        self._orphans = (self._orphans[1], orphans)
        for holder in {h for h in holders if h is not None and h != self.instance}:
            if await self._dead(holder):  # died holding leases: no need to wait them out
                ready |= {c for c, h in zip(codes, holders, strict=True) if h == holder}
        for code in _jitter.sample(sorted(ready), len(ready)):
            with contextlib.suppress(RoomError):
                await self.ensure(code)

"""The room registry in cluster mode: the rooms this instance owns, plus what the cluster
shares through Redis — fresh codes (a lease per room), the creation limit per address,
and the lobby (each instance publishes its public rooms; every instance lists them all).
"""

from __future__ import annotations

import contextlib
import logging
import time
import uuid
from collections.abc import Sequence
from typing import Any

import orjson
from redis.asyncio import Redis
from redis.exceptions import RedisError

from server.config import Settings
from server.rooms import Room, RoomManager, RoomOptions
from server.rooms.manager import LISTING_LIMIT

from .leases import PREFIX, text
from .ownership import Ownership, unavailable

log = logging.getLogger(__name__)

LOBBY = f"{PREFIX}lobby:"
INSTANCES = f"{PREFIX}instances"


CREATE_WINDOW_MS = 60_000
# One sliding window in a sorted set, atomically: the hits of the last ARGV[2] ms (by the
# Redis server's clock, the same for every instance), and this one added unless ARGV[1]
# are there already (a refused attempt is not counted). 1 if allowed, else 0.
SLIDING_WINDOW = """
local now = redis.call('TIME')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ms - tonumber(ARGV[2]))
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then
  return 0
end
redis.call('ZADD', KEYS[1], ms, ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
"""


def redis_client(settings: Settings) -> Redis:
    """The client of REDIS_URL. Each command (a connection too) gives up after a third of
    LEASE_TTL, the renewal interval: a frozen or unreachable Redis then costs a creation,
    a claim or a lobby read that long (answered 503, or this instance's rooms only), and
    /healthz says so by the next renewal, instead of hanging on the socket. Blocking reads
    of the handoff channel are not bounded by it (redis-py waits on them indefinitely)."""
    timeout = settings.LEASE_TTL / 3
    return Redis.from_url(settings.REDIS_URL or "", socket_timeout=timeout,
                          socket_connect_timeout=timeout)


class ClusterRoomManager(RoomManager):
    def __init__(self, settings: Settings, redis: Redis, **kwargs: Any) -> None:
        super().__init__(settings, **kwargs)
        self.redis = redis
        self.instance = settings.instance
        self.ownership = Ownership(self, redis, self.instance, settings.LEASE_TTL,
                                   publish_lobby=self.publish_lobby)
        self._create_window = redis.register_script(SLIDING_WINDOW)

    async def allow_create(self, client: str) -> bool:
        """At most ROOM_CREATE_RATE rooms per address in any minute, counted cluster-wide:
        the single server's sliding window (server.rooms.ratelimit), kept in Redis."""
        try:
            allowed = await self._create_window(
                keys=[f"{PREFIX}create:{client}"],
                args=[self.settings.ROOM_CREATE_RATE, CREATE_WINDOW_MS, uuid.uuid4().hex])
        except RedisError as exc:
            self.ownership.redis_ok = False
            raise unavailable("rooms cannot be created right now; retry soon") from exc
        return bool(allowed)

    async def reserve(self, code: str) -> bool:
        try:
            taken = not await self.ownership.leases.acquire(code)
        except RedisError as exc:
            raise unavailable("rooms cannot be created right now; retry soon") from exc
        if taken:
            return False
        self.ownership.new_room(code)
        return True

    async def unreserve(self, code: str) -> None:
        self.ownership.epochs.pop(code, None)
        with contextlib.suppress(RedisError):
            await self.ownership.leases.release(code)

    async def create(
        self, options: RoomOptions, client: str | None, bots: Sequence[str | None] = ()
    ) -> tuple[Room, str]:
        created = await super().create(options, client, bots)
        try:
            await self.publish_lobby()
        except RedisError as exc:
            log.debug("lobby not published: %r", exc)
        return created

    def health(self) -> dict[str, str]:
        return {"redis": "ok" if self.ownership.redis_ok else "unreachable"}

    # --- the lobby ---------------------------------------------------------------------

    async def publish_lobby(self) -> None:
        """Our public rooms, for every instance's lobby; gone with us if we stop renewing."""
        now_wall, now = time.time(), self.clock()
        entries = {
            kind: [
                {**info, "_since": now_wall - (now - self.rooms[_code(info)].created_at)}
                for info in infos if _code(info) in self.rooms
            ]
            for kind, infos in self.listing().items()
        }
        ttl_ms = int(self.settings.LEASE_TTL * 1000)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(LOBBY + self.instance, orjson.dumps(entries), px=ttl_ms)
            pipe.sadd(INSTANCES, self.instance)
            await pipe.execute()

    async def public_listing(self) -> dict[str, list[dict[str, Any]]]:
        try:
            instances = sorted(text(m) for m in await self.redis.smembers(INSTANCES))
            blobs = await self.redis.mget([LOBBY + i for i in instances]) if instances else []
        except RedisError as exc:
            log.debug("lobby unreadable (%r); listing this instance only", exc)
            return self.listing()
        merged: dict[str, list[dict[str, Any]]] = {"open": [], "live": []}
        for blob in blobs:
            if blob is None:
                continue
            for kind, infos in orjson.loads(blob).items():
                merged.setdefault(kind, []).extend(infos)
        for kind, infos in merged.items():
            infos.sort(key=lambda info: info.pop("_since"), reverse=True)
            merged[kind] = infos[:LISTING_LIMIT]
        return merged

    async def goodbye(self, reason: str = "restarting", grace: float = 2.0) -> None:
        """Shutting down: hand every room to another instance instead of closing it."""
        try:
            await self.ownership.stop()
        except RedisError as exc:
            log.warning("rooms not handed over (%r); others claim them when leases expire", exc)
        await super().goodbye(reason, grace)


def _code(info: dict[str, Any]) -> str:
    return str(info["code"]).replace("-", "")



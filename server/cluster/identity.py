"""One live instance per INSTANCE_ID. Leases and handoff requests name an instance by its
id, so two instances under one id would each renew, release and hand over the other's
rooms as its own. Each instance holds a Redis key for its id (a random token, SET NX PX
LEASE_TTL), renewed with its leases and deleted when it stops; a second instance that
finds the key still renewed after one LEASE_TTL is refused at start. One that crashed
holds it no longer than that, so its restart under the same id waits at most one TTL.
"""

from __future__ import annotations

import asyncio
import logging
import uuid

from redis.asyncio import Redis

from .leases import PREFIX
from .settings import ClusterConfigError

log = logging.getLogger(__name__)

# Ours, or free: (re)set to our token. Held by another token: 0.
_RENEW = """
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class InstanceTaken(ClusterConfigError):
    pass


class Identity:
    def __init__(self, redis: Redis, instance: str, ttl: float) -> None:
        self.redis = redis
        self.instance = instance
        self.ttl = ttl
        self.key = f"{PREFIX}instance:{instance}"
        self.token = uuid.uuid4().hex
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)

    async def take(self) -> None:
        """At start: hold the id, waiting out a crashed predecessor's key; InstanceTaken if
        a live instance keeps renewing it. Redis errors are raised."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.ttl * 1.5
        while not await self.renew():
            if loop.time() >= deadline:
                raise InstanceTaken(f"another instance is running as INSTANCE_ID="
                                    f"{self.instance} (each instance needs its own)")
            await asyncio.sleep(self.ttl / 6)

    async def renew(self) -> bool:
        """Hold the id one more TTL; False if another instance holds it."""
        return bool(await self._renew(keys=[self.key], args=[self.token, int(self.ttl * 1000)]))

    async def release(self) -> None:
        await self._release(keys=[self.key], args=[self.token])

"""Room ownership leases in Redis: one key per room, holding the owner's instance id.

A lease is taken with SET NX PX, renewed and released only by its holder (compare-and-set
scripts). A lease alone never makes a write safe — a frozen holder may wake after it
expired — so every journal write is also fenced by the room's epoch in PostgreSQL. The
lease says who *should* own a room; the epoch decides whose writes count.
"""

from __future__ import annotations

from collections.abc import Sequence

from redis.asyncio import Redis

PREFIX = "crush:"

# Renew every lease this instance holds. A missing one is not taken back here: it may have
# expired while we were frozen and been claimed (and released) since; Ownership retakes it
# only if the room's epoch in PostgreSQL is still ours (Redis restarted empty).
# Returns {the keys held by someone else now, the keys missing}.
_RENEW = """
local lost, missing = {}, {}
for _, key in ipairs(KEYS) do
  local holder = redis.call('GET', key)
  if holder == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
  elseif not holder then
    table.insert(missing, key)
  else
    table.insert(lost, key)
  end
end
return {lost, missing}
"""

# Take a lease from a holder known to be gone (see Ownership._gone), and only from it.
_STEAL = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) and 1 or 0
end
return 0
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


def text(value: bytes | str) -> str:
    """A Redis reply as text (the client is made without decode_responses: bytes)."""
    return value.decode() if isinstance(value, bytes) else value


def lease_key(code: str) -> str:
    return f"{PREFIX}lease:{code}"


class Leases:
    def __init__(self, redis: Redis, instance: str, ttl: float) -> None:
        self.redis = redis
        self.instance = instance
        self.ttl_ms = int(ttl * 1000)
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)
        self._steal = redis.register_script(_STEAL)

    async def acquire(self, code: str) -> bool:
        return bool(await self.redis.set(lease_key(code), self.instance, nx=True, px=self.ttl_ms))

    async def holder(self, code: str) -> str | None:
        value = await self.redis.get(lease_key(code))
        return None if value is None else text(value)

    async def holders(self, codes: Sequence[str]) -> list[str | None]:
        if not codes:
            return []
        values = await self.redis.mget([lease_key(c) for c in codes])
        return [None if v is None else text(v) for v in values]

    async def renew(self, codes: Sequence[str]) -> tuple[set[str], set[str]]:
        """Renew the leases of `codes` we still hold; returns (the codes now held by another
        instance, the codes whose lease is gone)."""
        if not codes:
            return set(), set()
        lost, missing = await self._renew(keys=[lease_key(c) for c in codes],
                                          args=[self.instance, self.ttl_ms])
        prefix = len(lease_key(""))
        return ({text(key)[prefix:] for key in lost}, {text(key)[prefix:] for key in missing})

    async def steal(self, code: str, holder: str) -> bool:
        """Take the lease of `code` if `holder` still has it."""
        return bool(await self._steal(keys=[lease_key(code)],
                                      args=[holder, self.instance, self.ttl_ms]))

    async def release(self, code: str) -> None:
        await self._release(keys=[lease_key(code)], args=[self.instance])

"""The operators' view of a cluster: each instance publishes its report (snapshot.py) in
Redis while someone has looked at /admin in the last WATCH_MS, and the instance serving the
page reads them all. An instance in the cluster's list with no fresh report is shown as not
reporting (stopped, frozen, or cut off from Redis)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

import orjson
from redis.asyncio import Redis
from redis.exceptions import RedisError

from server.cluster.leases import PREFIX, text
from server.cluster.manager import INSTANCES

log = logging.getLogger(__name__)

WATCHING = f"{PREFIX}admin:watching"
REPORT = f"{PREFIX}admin:report:"
WATCH_MS = 60_000  # how long one look at /admin keeps the instances reporting
REPORT_MS = 10_000  # how long a report stands (a silent instance drops out after it)
PUBLISH_EVERY = 2.0


class Reports:
    def __init__(self, redis: Redis, instance: str,
                 report: Callable[[], dict[str, Any]]) -> None:
        self.redis = redis
        self.instance = instance
        self.report = report

    async def publish(self) -> None:
        await self.redis.set(REPORT + self.instance, orjson.dumps(self.report()), px=REPORT_MS)

    async def publish_now(self) -> None:
        """Publish at once (after a change the next look must see), unless Redis is out of
        reach: the regular publishing catches up then."""
        with contextlib.suppress(RedisError):
            await self.publish()

    async def run(self, every: float = PUBLISH_EVERY) -> None:
        while True:
            await asyncio.sleep(every)
            try:
                if await self.redis.exists(WATCHING):
                    await self.publish()
            except RedisError as exc:
                log.debug("operators' report not published (%r)", exc)

    async def gather(self, own: dict[str, Any]) -> list[dict[str, Any]]:
        """Every instance's report, ours fresh; the others as they last published."""
        reports = [own]
        try:
            await self.redis.set(WATCHING, b"1", px=WATCH_MS)
            await self.publish()
            others = sorted(text(m) for m in await self.redis.smembers(INSTANCES)
                            if text(m) != self.instance)
            blobs = await self.redis.mget([REPORT + i for i in others]) if others else []
        except RedisError as exc:
            log.debug("other instances' reports unreadable (%r)", exc)
            return [*reports, {"instance": "?", "reporting": False, "error": "redis"}]
        for instance, blob in zip(others, blobs, strict=True):
            reports.append(orjson.loads(blob) if blob is not None
                           else {"instance": instance, "reporting": False})
        return reports

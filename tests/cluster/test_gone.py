"""When an instance counts as dead (`Ownership._gone`, which lets a claim take its leases at
once): nobody has listened on its handoff channel for GONE_CHECK, as seen by checks less
than GONE_CHECK apart. A live instance goes silent for a moment now and then (it resubscribes
after a Redis hiccup): two such moments, however far apart, must not add up to a death, or
its rooms move (bye `moved`, a reconnect) for nothing.

A real redis-server of the test's own; "the other instance" is a real subscription to its
handoff channel, made and dropped by the test. The watching instance reads the test's clock,
so no check here waits on the wall clock."""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import pytest
from redis.asyncio import Redis

from server.cluster.ownership import GONE_CHECK, Ownership, handoff_channel
from server.config import Settings
from server.rooms import RoomManager

from .harness import Cluster

pytestmark = pytest.mark.asyncio
STEP = GONE_CHECK / 4  # how often a claim waiting for a lease looks (well under GONE_CHECK)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def redis_url(cluster_parts: None, tmp_path: Path) -> Iterator[str]:
    c = Cluster(tmp_path, instances=0)
    try:
        c.start_redis()
        yield f"redis://127.0.0.1:{c.redis_port}/0"
    finally:
        c.close()


async def _no_lobby() -> None:
    pass


@contextlib.asynccontextmanager
async def watcher(url: str, clock: Callable[[], float] | None = None) -> AsyncIterator[Ownership]:
    """Instance i1's view of the others (nothing of it is started)."""
    redis = Redis.from_url(url)
    manager = RoomManager(Settings(_env_file=None))
    try:
        yield Ownership(manager, redis, "i1", 2.0, _no_lobby, clock or time.monotonic)
    finally:
        await redis.aclose()


@contextlib.asynccontextmanager
async def listening(url: str, instance: str) -> AsyncIterator[None]:
    """`instance` listens on its handoff channel (as Ownership._listen_for_handoffs does)."""
    redis = Redis.from_url(url)
    try:
        async with redis.pubsub() as pubsub:
            await pubsub.subscribe(handoff_channel(instance))
            confirmed = await pubsub.get_message(timeout=10)
            assert confirmed is not None and confirmed["type"] == "subscribe"
            yield
    finally:
        await redis.aclose()
    await silent(url, instance)


async def silent(url: str, instance: str) -> None:
    """Until Redis has seen the subscription's connection close."""
    redis = Redis.from_url(url)
    try:
        for _ in range(1000):
            if (await redis.pubsub_numsub(handoff_channel(instance)))[0][1] == 0:
                return
        pytest.fail("the subscription outlived its connection")
    finally:
        await redis.aclose()


async def test_a_live_instance_silent_for_a_moment_long_after_another_is_not_gone(
    redis_url: str,
) -> None:
    clock = Clock()
    async with watcher(redis_url, clock) as i1:
        # i2 is not listening yet (starting, or resubscribing) when a claim of i1 looks once.
        assert not await i1._gone("i2")
        async with listening(redis_url, "i2"):
            clock.now += 60  # a minute of listening, which nobody here looks at
        # Resubscribing again, for a moment: the silence of a minute ago does not count.
        assert not await i1._gone("i2")
        clock.now += STEP
        assert not await i1._gone("i2")
        async with listening(redis_url, "i2"):  # back
            assert not await i1._gone("i2")


async def test_an_instance_silent_for_gone_check_seen_without_a_gap_is_gone(
    redis_url: str,
) -> None:
    clock = Clock()
    async with watcher(redis_url, clock) as i1:
        # A silence broken by a moment of listening counts from after that moment.
        assert not await i1._gone("i2")
        clock.now += STEP
        async with listening(redis_url, "i2"):
            assert not await i1._gone("i2")
        for _ in range(4):  # silent from the first of these on, for 3 STEPs < GONE_CHECK
            clock.now += STEP
            assert not await i1._gone("i2")
        clock.now += 2 * STEP  # silent longer than GONE_CHECK, looked at all along: dead
        assert await i1._gone("i2")
        # Looks more than GONE_CHECK apart could each have missed it listening: no verdict.
        assert not await i1._gone("i3")
        for _ in range(3):
            clock.now += 1.5 * GONE_CHECK
            assert not await i1._gone("i3")


async def test_a_scan_now_and_then_asks_until_it_can_tell(redis_url: str) -> None:
    # The orphan scan asks about each holder once a lease period: it looks on (real time)
    # until the holder is heard or has been silent GONE_CHECK.
    async with watcher(redis_url) as i1:
        assert await i1._dead("i2")
        async with listening(redis_url, "i3"):
            assert not await i1._dead("i3")

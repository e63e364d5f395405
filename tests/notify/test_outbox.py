"""The outbox on both databases: a key is written once; two senders never hold the same
row (on PostgreSQL even while both claim at once: FOR UPDATE SKIP LOCKED); a claim that ran
out is taken over, and its old holder can then neither extend nor settle it; failures back
off."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
import pytest_asyncio
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.db.migrate import upgrade_async
from server.db.models import SeatAddress
from server.db.session import make_engine, session_factory
from server.notify import outbox

NOW = datetime(2026, 12, 4, 8, 0, tzinfo=UTC)


@pytest_asyncio.fixture
async def sessions(db_url: str) -> AsyncIterator[async_sessionmaker[AsyncSession]]:
    await upgrade_async(db_url)
    engine = make_engine(db_url)
    factory = session_factory(engine)
    async with factory() as s, s.begin():
        s.add(SeatAddress(id=1, room_code="ROOM0001", seat=1, address="bo@example.org",
                          lang="en", code_tries=0, codes_sent=0, unsub_key="k",
                          created_at=NOW))
    try:
        yield factory
    finally:
        await engine.dispose()


async def put(factory: async_sessionmaker[AsyncSession], key: str) -> bool:
    async with factory() as s, s.begin():
        return await outbox.put(s, key=key, kind="turn", room_code="ROOM0001", seat=1,
                                seq=3, address_id=1, payload=None, now=NOW)


@pytest.mark.asyncio
async def test_a_key_is_written_once_and_claims_do_not_overlap(sessions, db_url) -> None:
    assert await put(sessions, "turn:ROOM0001:3:1")
    assert not await put(sessions, "turn:ROOM0001:3:1")  # again (a restart, an instance)
    for n in range(4, 8):
        await put(sessions, f"turn:ROOM0001:{n}:1")
    if db_url.startswith("postgresql"):  # two instances claiming at the same moment
        async with sessions() as a, a.begin():
            first = await outbox.claim(a, "A", NOW, limit=2)
            async with sessions() as b, b.begin():
                second = await outbox.claim(b, "B", NOW, limit=5)
    else:
        async with sessions() as a, a.begin():
            first = await outbox.claim(a, "A", NOW, limit=2)
        async with sessions() as b, b.begin():
            second = await outbox.claim(b, "B", NOW, limit=5)
    assert len(first) == 2 and len(second) == 3
    assert not {r.id for r in first} & {r.id for r in second}
    async with sessions() as s, s.begin():
        assert await outbox.claim(s, "C", NOW) == []  # all held
        assert await outbox.backlog(s) == 5


@pytest.mark.asyncio
async def test_a_claim_that_ran_out_is_taken_over(sessions) -> None:
    await put(sessions, "turn:ROOM0001:3:1")
    async with sessions() as s, s.begin():
        (row,) = await outbox.claim(s, "A", NOW)
        assert await outbox.extend(s, row.id, "A", NOW + timedelta(seconds=1))
    later = NOW + outbox.CLAIM_TTL + timedelta(seconds=2)
    async with sessions() as s, s.begin():
        (again,) = await outbox.claim(s, "B", later)  # A died, or froze
        assert again.id == row.id
    async with sessions() as s, s.begin():
        assert not await outbox.extend(s, row.id, "A", later)  # A wakes up: not its own
        assert not await outbox.sent(s, row.id, "A", later)
        assert await outbox.sent(s, row.id, "B", later)
        assert await outbox.backlog(s) == 0


@pytest.mark.asyncio
async def test_failures_back_off_then_give_up(sessions) -> None:
    await put(sessions, "turn:ROOM0001:3:1")
    now = NOW
    for attempt in range(outbox.GIVE_UP_AFTER):
        async with sessions() as s, s.begin():
            (row,) = await outbox.claim(s, "A", now)
            assert row.attempts == attempt
            await outbox.retry(s, row.id, "A", row.attempts, now)
            due = await outbox.soonest(s)
        if due is None:
            break
        assert due - now == outbox.backoff(attempt + 1)
        async with sessions() as s, s.begin():
            assert await outbox.claim(s, "A", due - timedelta(seconds=1)) == []
        now = due
    assert attempt == outbox.GIVE_UP_AFTER - 1
    async with sessions() as s:
        assert await outbox.backlog(s) == 0  # dropped after GIVE_UP_AFTER tries
    assert outbox.backoff(1) == timedelta(seconds=5)
    assert outbox.backoff(30) == timedelta(seconds=outbox.BACKOFF_MAX)

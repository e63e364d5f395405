"""Stored reviews (db/reviews.py): the row is the claim, so two instances never compute one
review (issue 45); a claim whose holder died is taken over after its lease; a review is
stored once, by its claim's holder only. On SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from server.db import reviews, store
from server.db.session import session_factory

from .helpers import finished, new_room

T0 = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
LEASE = timedelta(seconds=120)


@pytest.mark.asyncio
async def test_one_instance_claims_a_review_the_other_cannot_until_its_lease_runs_out(
    engine: AsyncEngine,
):
    sessions = session_factory(engine)
    async with sessions.begin() as s:
        game_id = await store.save_finished_game(s, finished(new_room("RVW1AAAA", T0), T0, T0))
    async with sessions.begin() as s:  # asked twice (two instances): one row
        first = await reviews.ask(s, game_id, 0.25, 0, T0)
    async with sessions.begin() as s:
        again = await reviews.ask(s, game_id, 0.5, 9, T0)
    assert first.state == again.state == reviews.QUEUED and again.work == 0.25
    async with sessions.begin() as s:
        assert await reviews.claim(s, game_id, "a", T0, LEASE)
    async with sessions.begin() as s:
        assert not await reviews.claim(s, game_id, "b", T0 + timedelta(seconds=60), LEASE)
        assert await reviews.pending(s, T0 + timedelta(seconds=60), LEASE, 10) == []
    async with sessions.begin() as s:  # "a" renews, so its lease runs from then
        assert await reviews.renew(s, game_id, "a", T0 + timedelta(seconds=100))
        assert not await reviews.claim(s, game_id, "b", T0 + timedelta(seconds=200), LEASE)
    later = T0 + timedelta(seconds=221)  # "a" died: nothing heard for more than the lease
    async with sessions.begin() as s:
        assert await reviews.pending(s, later, LEASE, 10) == [game_id]
        assert await reviews.claim(s, game_id, "b", later, LEASE)
    async with sessions.begin() as s:  # "a" wakes up: its result is not stored
        assert not await reviews.finish(s, game_id, "a", {"by": "a"}, later)
        assert await reviews.finish(s, game_id, "b", {"by": "b"}, later)
    async with sessions.begin() as s:
        row = await reviews.get(s, game_id)
        assert row is not None and row.state == reviews.DONE
        assert row.review == {"by": "b"} and row.computed == 1
        assert not await reviews.claim(s, game_id, "c", later + LEASE * 9, LEASE)  # done


@pytest.mark.asyncio
async def test_a_claim_given_back_at_shutdown_is_pending_again(engine: AsyncEngine):
    sessions = session_factory(engine)
    async with sessions.begin() as s:
        game_id = await store.save_finished_game(s, finished(new_room("RVW2AAAA", T0), T0, T0))
        await reviews.ask(s, game_id, 0.25, 0, T0)
        assert await reviews.claim(s, game_id, "a", T0, LEASE)
    async with sessions.begin() as s:
        await reviews.release(s, game_id, "a")
    async with sessions.begin() as s:
        assert await reviews.pending(s, T0, LEASE, 10) == [game_id]

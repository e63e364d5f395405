"""Stored reviews of finished games (`game_reviews`): one row per game, which is the claim.

- `ask` writes a `queued` row if the game has none (a review asked for is remembered: a
  restarted server takes it up again, `pending`).
- `claim` makes the row this instance's (`running`, `claimed_by`, `claimed_at`) if nobody
  holds it, or if its holder's lease ran out (it died); compare-and-set on the row, so
  two instances never both win. The holder renews the lease (`renew`) as it works.
- `finish` stores the review (`done`), counting the computation (`computed`), only while
  the claim is still this instance's; `fail` marks a game whose review cannot be made.

The caller owns the transaction (commit to make a claim stick).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import exists, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from .models import Game as GameRow
from .models import GamePlayer, GameRating, GameReview, RoomSeat
from .models import Room as RoomRow

QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"


@dataclass(frozen=True, slots=True)
class ReviewRow:
    game_id: int
    state: str
    claimed_by: str | None
    work: float
    seed: int
    computed: int
    review: dict[str, Any] | None


def _row(r: GameReview) -> ReviewRow:
    return ReviewRow(r.game_id, r.state, r.claimed_by, r.work, r.seed, r.computed, r.review)


async def get(session: AsyncSession, game_id: int) -> ReviewRow | None:
    found = await session.get(GameReview, game_id, populate_existing=True)
    return None if found is None else _row(found)


async def ask(session: AsyncSession, game_id: int, work: float, seed: int,
              now: datetime) -> ReviewRow:
    """The game's review row, written `queued` if there was none."""
    found = await get(session, game_id)
    if found is not None:
        return found
    try:
        async with session.begin_nested():
            session.add(GameReview(game_id=game_id, state=QUEUED, work=work, seed=seed,
                                   computed=0, asked_at=now))
    except IntegrityError:  # another instance wrote it first
        pass
    row = await get(session, game_id)
    assert row is not None
    return row


async def claim(session: AsyncSession, game_id: int, me: str, now: datetime,
                lease: timedelta) -> bool:
    """Make the (asked) review this instance's to compute: True if it now is."""
    free = ((GameReview.claimed_by.is_(None)) | (GameReview.claimed_at < now - lease)
            | (GameReview.claimed_by == me))
    done = await session.execute(
        update(GameReview)
        .where(GameReview.game_id == game_id, GameReview.state.in_((QUEUED, RUNNING)), free)
        .values(state=RUNNING, claimed_by=me, claimed_at=now))
    return bool(getattr(done, "rowcount", 0) == 1)


async def renew(session: AsyncSession, game_id: int, me: str, now: datetime) -> bool:
    """Keep the claim: False if it is no longer this instance's."""
    done = await session.execute(
        update(GameReview)
        .where(GameReview.game_id == game_id, GameReview.claimed_by == me,
               GameReview.state == RUNNING)
        .values(claimed_at=now))
    return bool(getattr(done, "rowcount", 0) == 1)


async def finish(session: AsyncSession, game_id: int, me: str, review: dict[str, Any],
                 now: datetime) -> bool:
    """Store the computed review, if the claim is still this instance's."""
    done = await session.execute(
        update(GameReview)
        .where(GameReview.game_id == game_id, GameReview.claimed_by == me,
               GameReview.state == RUNNING)
        .values(state=DONE, review=review, done_at=now, claimed_by=None, claimed_at=None,
                computed=GameReview.computed + 1))
    return bool(getattr(done, "rowcount", 0) == 1)


async def fail(session: AsyncSession, game_id: int, me: str, now: datetime) -> None:
    await session.execute(
        update(GameReview)
        .where(GameReview.game_id == game_id, GameReview.claimed_by == me)
        .values(state=FAILED, done_at=now, claimed_by=None, claimed_at=None))


async def release(session: AsyncSession, game_id: int, me: str) -> None:
    """Give a claim back (shutting down): another instance, or this one restarted, takes
    it up again."""
    await session.execute(
        update(GameReview)
        .where(GameReview.game_id == game_id, GameReview.claimed_by == me,
               GameReview.state == RUNNING)
        .values(state=QUEUED, claimed_by=None, claimed_at=None))


async def pending(session: AsyncSession, now: datetime, lease: timedelta,
                  limit: int) -> list[int]:
    """Games whose review was asked and that nobody is computing (never claimed, given
    back, or their holder's lease ran out), oldest first."""
    free = (GameReview.claimed_by.is_(None)) | (GameReview.claimed_at < now - lease)
    found = await session.scalars(
        select(GameReview.game_id)
        .where(GameReview.state.in_((QUEUED, RUNNING)), free)
        .order_by(GameReview.asked_at, GameReview.game_id).limit(limit))
    return list(found)


async def rated_unreviewed(session: AsyncSession, since: datetime, limit: int) -> list[int]:
    """Rated games that ended since `since` and have no review row: reviewed
    automatically when REVIEW_RATED is on."""
    rated = exists().where(GameRating.game_id == GameRow.id)
    asked = exists().where(GameReview.game_id == GameRow.id)
    found = await session.scalars(
        select(GameRow.id).where(GameRow.ended_at >= since, rated, ~asked)
        .order_by(GameRow.ended_at, GameRow.id).limit(limit))
    return list(found)


async def is_player(session: AsyncSession, game_id: int, account_id: int | None,
                    token_hash: str | None) -> bool:
    """Whether the signed-in account, or the holder of a seat token (its hash), played
    the game."""
    if account_id is not None:
        found = await session.scalar(select(GamePlayer.seat).where(
            GamePlayer.game_id == game_id, GamePlayer.account_id == account_id).limit(1))
        if found is not None:
            return True
    if token_hash is not None:
        found = await session.scalar(
            select(RoomSeat.seat).join(RoomRow, RoomRow.id == RoomSeat.room_id)
            .join(GameRow, GameRow.room_code == RoomRow.code)
            .where(GameRow.id == game_id, RoomSeat.token_hash == token_hash).limit(1))
        if found is not None:
            return True
    return False

"""The seeks table's queries (server.db.models.Seek); the caller owns the transaction.

The waiting list lives in the database every instance shares, never in one process's
memory. Claiming is where two instances could seat one player twice; it cannot happen:
a table's rows are locked `FOR UPDATE SKIP LOCKED` on PostgreSQL (a table whose rows
another instance's matcher holds is left for the next pass: nobody waits, no deadlock),
then claimed by one UPDATE guarded by `claim IS NULL` (or an expired claim) whose row
count must be the table's; SQLite has one instance, whose matcher runs one pass at a time.
Only the rows of the tables being made are locked, not the whole waiting list.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import and_, delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from server.db.models import PlayerRating, Seek
from server.db.ratings import START, shown

# A claim the matcher did not finish (its instance died) is taken back after this long.
CLAIM_TTL = timedelta(seconds=15)


class SeekExists(Exception):
    """The player already has a seek (one per player)."""


@dataclass(frozen=True, slots=True)
class NewSeek:
    player: str
    account_id: int | None
    name: str
    client: str
    size: int
    mode: str
    rated: bool
    bots_after: int | None
    join_id: int | None
    token_hash: str
    instance: str


async def rating_of(session: AsyncSession, account_id: int) -> int:
    """The rating shown for an account (a new one's: 1500)."""
    mu = await session.scalar(select(PlayerRating.mu).where(PlayerRating.account_id == account_id))
    return shown(START[0] if mu is None else mu)


async def count_at(session: AsyncSession, client: str) -> int:
    return await session.scalar(select(func.count()).select_from(Seek).where(
        Seek.client == client)) or 0


async def add(session: AsyncSession, seek: NewSeek, rating: int | None, now: datetime) -> int:
    """Insert a seek; SeekExists if the player has one already."""
    row = Seek(player=seek.player, account_id=seek.account_id, name=seek.name, rating=rating,
               client=seek.client, size=seek.size, mode=seek.mode, rated=seek.rated,
               bots_after=seek.bots_after, join_id=seek.join_id, token_hash=seek.token_hash,
               instance=seek.instance, created_at=now, alive_at=now)
    session.add(row)
    try:
        async with session.begin_nested():
            await session.flush()
    except IntegrityError as exc:
        raise SeekExists from exc
    return row.id


async def remove(session: AsyncSession, ids: Iterable[int]) -> None:
    ids = list(ids)
    if ids:
        await session.execute(delete(Seek).where(Seek.id.in_(ids)))


async def renew(session: AsyncSession, ids: Sequence[int], now: datetime) -> list[Seek]:
    """Keep these seeks alive; returns those of them that were seated (room_code set)."""
    if not ids:
        return []
    await session.execute(update(Seek).where(Seek.id.in_(ids)).values(alive_at=now))
    return list((await session.scalars(select(Seek).where(
        Seek.id.in_(ids), Seek.room_code.is_not(None)))).all())


async def drop_stale(session: AsyncSession, cutoff: datetime) -> None:
    """Seeks nobody renewed since `cutoff` (their socket's instance is gone)."""
    await session.execute(delete(Seek).where(Seek.alive_at < cutoff))


def _waiting(alive: datetime, now: datetime) -> object:
    return and_(Seek.room_code.is_(None), Seek.alive_at >= alive,
                or_(Seek.claim.is_(None), Seek.claimed_at < now - CLAIM_TTL))


async def waiting(session: AsyncSession, alive: datetime, now: datetime) -> list[Seek]:
    """The seeks waiting to be seated (renewed since `alive`, unclaimed), oldest first."""
    query = select(Seek).where(_waiting(alive, now)).order_by(Seek.id)  # type: ignore[arg-type]
    return list((await session.scalars(query)).all())


async def lock(session: AsyncSession, ids: Sequence[int]) -> bool:
    """Lock these rows for a claim, in id order, without waiting: False if another
    instance's matcher holds one of them (PostgreSQL `FOR UPDATE SKIP LOCKED`; SQLite has
    one instance, whose matcher runs one pass at a time)."""
    if session.get_bind().dialect.name != "postgresql":
        # SQLite: the claim's UPDATE is the transaction's first statement, so it takes the
        # write lock (waiting its busy timeout), never a read snapshot a writer made stale.
        return True
    got = (await session.scalars(select(Seek.id).where(Seek.id.in_(ids)).order_by(Seek.id)
                                 .with_for_update(skip_locked=True))).all()
    return len(got) == len(ids)


async def claim(session: AsyncSession, ids: Sequence[int], claim_id: str, alive: datetime,
                now: datetime) -> bool:
    """Claim every one of `ids` for one table, or none (False: the caller rolls back)."""
    done = await session.execute(
        update(Seek).where(Seek.id.in_(ids), _waiting(alive, now))  # type: ignore[arg-type]
        .values(claim=claim_id, claimed_at=now))
    return done.rowcount == len(ids)  # type: ignore[attr-defined]


async def seated(session: AsyncSession, claim_id: str, seats: dict[int, int], code: str) -> int:
    """Write the table to the claimed seeks still there; returns how many were."""
    count = 0
    for seek_id, seat in seats.items():
        done = await session.execute(update(Seek).where(
            Seek.id == seek_id, Seek.claim == claim_id).values(room_code=code, seat=seat))
        count += done.rowcount  # type: ignore[attr-defined]
    return count


async def unclaim(session: AsyncSession, claim_id: str) -> None:
    await session.execute(update(Seek).where(Seek.claim == claim_id, Seek.room_code.is_(None))
                          .values(claim=None, claimed_at=None))

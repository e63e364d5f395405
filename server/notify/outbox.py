"""The outbox: one row per message key, claimed by one sender at a time.

- `put` writes a row once per key (insert-or-ignore): asking twice for the same turn's
  mail, in one process or after a restart, or from two instances, leaves one row.
- `claim` takes up to `limit` due rows for this sender until `until`. On PostgreSQL the
  rows are picked `FOR UPDATE SKIP LOCKED` in the claiming transaction, so two instances
  draining at once never take the same row; a claim that runs out (its sender died) makes
  the row due again. SQLite has one server per file (server.persist.lock), one drainer.
- `sent` / `retry` / `drop` settle a claimed row, only while this sender's claim stands.
- `make_digests`: an address that asked for a daily digest gets its turns `held`; at most
  once every DIGEST_EVERY they become one `digest` row (keyed on the address and the day,
  so two instances make one), in the same transaction as the turns are marked `digested`.

A row is sent at most once unless its sender dies between the SMTP server's answer and
`sent` (a window of one round trip): then it goes again after CLAIM_TTL, with the same
Message-ID, which mail clients use to fold duplicates. Nothing is ever lost that way.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from server.db.models import ABANDONED, FINISHED, MailOutbox, Room, SeatAddress

PENDING, SENT, DROPPED = "pending", "sent", "dropped"
HELD, DIGESTED = "held", "digested"  # a digest address's turns: waiting for, then in, one
DIGEST_EVERY = timedelta(hours=24)
CLAIM_TTL = timedelta(seconds=120)  # longer than one send may take (SMTP_TIMEOUT)
BACKOFF_FIRST, BACKOFF_MAX = 5.0, 1800.0  # seconds: 5, 10, 20, ... then every 30 minutes
GIVE_UP_AFTER = 40  # attempts (about 17 hours of a dead SMTP server): then dropped


@dataclass(frozen=True, slots=True)
class Claimed:
    id: int
    key: str
    kind: str
    room_code: str | None  # None: an account's mail
    seat: int
    seq: int
    address_id: int | None  # a seat's address
    account_address_id: int | None  # an account's
    payload: dict[str, Any] | None
    attempts: int


def backoff(attempts: int) -> timedelta:
    """The wait before the next try after `attempts` failed ones."""
    return timedelta(seconds=min(BACKOFF_MAX, BACKOFF_FIRST * 2 ** max(0, attempts - 1)))


async def put(session: AsyncSession, *, key: str, kind: str, room_code: str | None, seat: int,
              seq: int, address_id: int | None, payload: dict[str, Any] | None,
              now: datetime, status: str = PENDING,
              account_address_id: int | None = None) -> bool:
    """Write the message `key` unless it exists; True if this call wrote it. A seat's
    message names its room and `address_id`, an account's its `account_address_id`."""
    values = dict(key=key, kind=kind, room_code=room_code, seat=seat, seq=seq,
                  address_id=address_id, account_address_id=account_address_id,
                  payload=payload, status=status, attempts=0, next_at=now, created_at=now)
    dialect = session.get_bind().dialect.name
    insert: Any = postgresql.insert if dialect == "postgresql" else sqlite.insert
    result = await session.execute(
        insert(MailOutbox).values(**values).on_conflict_do_nothing(index_elements=["key"]))
    return bool(getattr(result, "rowcount", 0))


async def claim(session: AsyncSession, sender: str, now: datetime,
                limit: int = 20) -> list[Claimed]:
    """Due rows, claimed by `sender` until now + CLAIM_TTL (commit to make it stick)."""
    free = (MailOutbox.claimed_until.is_(None)) | (MailOutbox.claimed_until < now)
    pick = (select(MailOutbox.id)
            .where(MailOutbox.status == PENDING, MailOutbox.next_at <= now, free)
            .order_by(MailOutbox.next_at, MailOutbox.id).limit(limit)
            .with_for_update(skip_locked=True))
    ids = list((await session.execute(pick)).scalars())
    if not ids:
        return []
    await session.execute(update(MailOutbox).where(MailOutbox.id.in_(ids))
                          .values(claimed_by=sender, claimed_until=now + CLAIM_TTL))
    rows = (await session.execute(
        select(MailOutbox).where(MailOutbox.id.in_(ids)).order_by(MailOutbox.id))).scalars()
    return [Claimed(r.id, r.key, r.kind, r.room_code, r.seat, r.seq, r.address_id,
                    r.account_address_id, r.payload, r.attempts) for r in rows]


def _mine(row_id: int, sender: str) -> Any:
    return (MailOutbox.id == row_id) & (MailOutbox.claimed_by == sender) & (
        MailOutbox.status == PENDING)


async def extend(session: AsyncSession, row_id: int, sender: str, now: datetime) -> bool:
    """Just before sending: the claim is still this sender's, for CLAIM_TTL from now. False:
    it ran out and another sender may have it (a batch that took too long): skip the row."""
    result = await session.execute(
        update(MailOutbox).where(_mine(row_id, sender), MailOutbox.claimed_until > now)
        .values(claimed_until=now + CLAIM_TTL))
    return bool(getattr(result, "rowcount", 0))


async def sent(session: AsyncSession, row_id: int, sender: str, now: datetime) -> bool:
    """The SMTP server took it: done (the payload, e.g. a code, is not kept)."""
    result = await session.execute(update(MailOutbox).where(_mine(row_id, sender)).values(
        status=SENT, sent_at=now, payload=None, claimed_by=None, claimed_until=None))
    return bool(getattr(result, "rowcount", 0))


async def retry(session: AsyncSession, row_id: int, sender: str, attempts: int,
                now: datetime) -> None:
    """The send failed: due again after a backoff (or dropped after GIVE_UP_AFTER)."""
    if attempts + 1 >= GIVE_UP_AFTER:
        await drop(session, row_id, sender, now)
        return
    await session.execute(update(MailOutbox).where(_mine(row_id, sender)).values(
        attempts=attempts + 1, next_at=now + backoff(attempts + 1), claimed_by=None,
        claimed_until=None))


async def drop(session: AsyncSession, row_id: int, sender: str, now: datetime) -> None:
    """Not worth sending any more (the turn is over, the address unsubscribed)."""
    await session.execute(update(MailOutbox).where(_mine(row_id, sender)).values(
        status=DROPPED, sent_at=now, payload=None, claimed_by=None, claimed_until=None))


async def backlog(session: AsyncSession) -> int:
    """Messages waiting to be sent (due or backing off)."""
    count = select(func.count()).select_from(MailOutbox).where(MailOutbox.status == PENDING)
    return int((await session.execute(count)).scalar_one())


async def soonest(session: AsyncSession) -> datetime | None:
    """When the next pending row is due (None: nothing pending)."""
    first = (select(MailOutbox.next_at).where(MailOutbox.status == PENDING)
             .order_by(MailOutbox.next_at).limit(1))
    return (await session.execute(first)).scalar_one_or_none()


async def room_status(session: AsyncSession, room_code: str) -> str | None:
    """The stored status of a room (None: no such room)."""
    found = select(Room.status).where(Room.code == room_code)
    return (await session.execute(found)).scalar_one_or_none()


async def forget_ended(session: AsyncSession) -> int:
    """Delete the addresses (and their messages) of rooms whose game is over or that are
    gone: an address, and the seat link kept with it, lives only as long as its game."""
    ended = select(Room.code).where(Room.status.in_((FINISHED, ABANDONED)))
    gone = SeatAddress.room_code.in_(ended) | ~SeatAddress.room_code.in_(select(Room.code))
    ids = list((await session.execute(select(SeatAddress.id).where(gone))).scalars())
    if ids:
        await session.execute(delete(MailOutbox).where(MailOutbox.address_id.in_(ids)))
        await session.execute(delete(SeatAddress).where(SeatAddress.id.in_(ids)))
    return len(ids)


async def make_digests(session: AsyncSession, now: datetime) -> int:
    """Gather each digest address's held turns into one message, if its last digest is at
    least DIGEST_EVERY old; returns how many digests were written."""
    held = (select(MailOutbox.id, MailOutbox.key, MailOutbox.room_code, MailOutbox.seat,
                   MailOutbox.address_id, SeatAddress.address)
            .join(SeatAddress, SeatAddress.id == MailOutbox.address_id)
            .where(MailOutbox.status == HELD).order_by(MailOutbox.id)
            .with_for_update(of=MailOutbox, skip_locked=True))
    by_address: dict[str, list[Any]] = {}
    for row in (await session.execute(held)).all():
        by_address.setdefault(row.address, []).append(row)
    made = 0
    for address, turns in by_address.items():
        last = (await session.execute(select(func.max(SeatAddress.digest_at))
                                      .where(SeatAddress.address == address))).scalar_one()
        if last is not None and now - last < DIGEST_EVERY:
            continue
        first = turns[0]
        tag = hashlib.sha256(address.encode()).hexdigest()[:24]
        payload = {"turns": [[t.key, t.room_code, t.seat, t.address_id] for t in turns]}
        if await put(session, key=f"digest:{tag}:{now:%Y-%m-%d}", kind="digest",
                     room_code=first.room_code, seat=first.seat, seq=0,
                     address_id=first.address_id, payload=payload, now=now):
            await session.execute(update(MailOutbox).where(
                MailOutbox.id.in_([t.id for t in turns])).values(status=DIGESTED, sent_at=now))
            await session.execute(update(SeatAddress).where(SeatAddress.address == address)
                                  .values(digest_at=now))
            made += 1
    return made


async def release_held(session: AsyncSession, address: str) -> None:
    """The address turned its digest off: its held turns go out one by one after all."""
    ids = select(SeatAddress.id).where(SeatAddress.address == address)
    await session.execute(update(MailOutbox).where(
        MailOutbox.status == HELD, MailOutbox.address_id.in_(ids)).values(status=PENDING))


async def hold_pending(session: AsyncSession, address: str) -> None:
    """The address asked for a digest: its turns not yet sent (nor being sent) wait for it."""
    ids = select(SeatAddress.id).where(SeatAddress.address == address)
    await session.execute(update(MailOutbox).where(
        MailOutbox.status == PENDING, MailOutbox.kind == "turn",
        MailOutbox.claimed_by.is_(None), MailOutbox.address_id.in_(ids)).values(status=HELD))

"""The operators' queries: who is one, the audit (`operator_actions`), the announcement and
the server-wide mutes. The caller owns the transaction."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from server.db.models import Account, OperatorAction, utcnow

# What an operator (or the host's CLI) can do; the audit's `action` column holds one.
ANNOUNCE, CLOSE_ROOM, DISABLE, ENABLE, MUTE, UNMUTE = (
    "announce", "close_room", "disable", "enable", "mute", "unmute")
OPERATOR, NOT_OPERATOR = "operator", "not_operator"
ACTIONS = (ANNOUNCE, CLOSE_ROOM, DISABLE, ENABLE, MUTE, UNMUTE, OPERATOR, NOT_OPERATOR)


@dataclass(frozen=True, slots=True)
class Done:
    """One row of the audit."""

    id: int
    at: datetime
    by: int | None  # the operator's account (None: the host's CLI)
    by_name: str | None
    action: str
    target: str | None
    detail: str | None


async def is_operator(session: AsyncSession, account_id: int) -> bool:
    found = await session.scalar(select(Account.operator).where(Account.id == account_id))
    return bool(found)


async def set_operator(session: AsyncSession, account_id: int, on: bool) -> None:
    await session.execute(update(Account).where(Account.id == account_id).values(operator=on))


async def set_muted(session: AsyncSession, account_id: int, on: bool) -> None:
    await session.execute(update(Account).where(Account.id == account_id).values(muted=on))


async def muted(session: AsyncSession) -> set[int]:
    return set((await session.scalars(select(Account.id).where(Account.muted))).all())


async def record(session: AsyncSession, by: int | None, action: str, target: str | None = None,
                 detail: str | None = None, at: datetime | None = None) -> Done:
    """Write one audit row (its id is the feed's position)."""
    if action not in ACTIONS:
        raise ValueError(f"unknown operator action {action!r}")
    row = OperatorAction(at=at or utcnow(), account_id=by, action=action, target=target,
                         detail=detail)
    session.add(row)
    await session.flush()
    return _done(row, None)


def _done(row: OperatorAction, name: str | None) -> Done:
    return Done(row.id, row.at, row.account_id, name, row.action, row.target, row.detail)


async def recent(session: AsyncSession, limit: int = 50) -> list[Done]:
    """The newest audit rows first, with the operator's name."""
    rows = (await session.execute(
        select(OperatorAction, Account.name).outerjoin(Account,
                                                       Account.id == OperatorAction.account_id)
        .order_by(OperatorAction.id.desc()).limit(limit))).all()
    return [_done(row, name) for row, name in rows]


async def since(session: AsyncSession, after: int) -> list[Done]:
    """Audit rows after id `after`, oldest first (the feed)."""
    rows = (await session.scalars(select(OperatorAction).where(OperatorAction.id > after)
                                  .order_by(OperatorAction.id))).all()
    return [_done(row, None) for row in rows]


async def last_id(session: AsyncSession) -> int:
    return int(await session.scalar(select(OperatorAction.id).order_by(
        OperatorAction.id.desc()).limit(1)) or 0)


async def announcement(session: AsyncSession) -> str:
    """The text of the last announcement ("" once one was cleared, or none was made)."""
    text = await session.scalar(select(OperatorAction.detail).where(
        OperatorAction.action == ANNOUNCE).order_by(OperatorAction.id.desc()).limit(1))
    return text or ""

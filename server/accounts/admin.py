"""The host's account tools behind `coffee-rush users ...` (server/cli.py): list, disable,
enable, rename (`operator`: server/admin/host.py). Each opens the database of a URL, does
one transaction and closes it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.db.models import Account, Passkey, utcnow
from server.db.session import make_engine, session_factory

from . import store
from .errors import AccountError
from .names import name_key
from .store import AccountInfo

T = TypeVar("T")


async def with_session(url: str, work: Callable[[AsyncSession], Awaitable[T]]) -> T:
    engine = make_engine(url)
    try:
        async with session_factory(engine)() as session, session.begin():
            return await work(session)
    finally:
        await engine.dispose()


async def find(session: AsyncSession, who: str) -> AccountInfo:
    """An account by its id (digits, or #12) or by its name (any look-alike of it)."""
    found = None
    if who.lstrip("#").isdigit():
        found = await store.get_account(session, int(who.lstrip("#")))
    if found is None:
        found = await store.account_by_key(session, name_key(who))
    if found is None:
        raise AccountError("not_found", f"no account {who!r}", 404)
    return found


async def list_users(url: str) -> list[dict[str, Any]]:
    async def work(session: AsyncSession) -> list[dict[str, Any]]:
        counts = dict((await session.execute(
            select(Passkey.account_id, func.count()).group_by(Passkey.account_id))).all())
        operators = set((await session.scalars(
            select(Account.id).where(Account.operator))).all())
        return [{"id": a.id, "name": a.name, "created_at": a.created_at.isoformat(),
                 "status": "deleted" if a.deleted else "disabled" if a.disabled else "active",
                 "passkeys": counts.get(a.id, 0), "password": a.password_hash is not None,
                 "operator": a.id in operators}
                for a in await store.accounts(session)]
    return await with_session(url, work)


async def set_disabled(url: str, who: str, disabled: bool) -> AccountInfo:
    """Disable (its sessions end at once) or enable an account."""
    async def work(session: AsyncSession) -> AccountInfo:
        account = await find(session, who)
        await store.set_disabled(session, account.id, disabled)
        return account
    return await with_session(url, work)


async def rename(url: str, who: str, name: str,
                 hold: store.NameHold) -> tuple[AccountInfo, str]:
    """Rename an account to `name` (checked by the caller; the host is held to no rename
    limit); refused if its key is another account's, now or held from before a rename."""
    async def work(session: AsyncSession) -> tuple[AccountInfo, str]:
        account = await find(session, who)
        holder = await store.holder(session, name_key(name), hold, utcnow())
        if holder is not None and holder != account.id:
            raise AccountError("name_taken", f"account #{holder} has (or had) that name", 409)
        await store.rename(session, account.id, name, name_key(name), utcnow())
        return account, name
    return await with_session(url, work)

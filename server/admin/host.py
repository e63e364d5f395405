"""`coffee-rush users operator WHO` (and `--revoke`): the host marks an account as an
operator, who may then open /admin. Audited like an operator's own actions, by nobody (the
host's command line)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from server.accounts.admin import find, with_session
from server.accounts.errors import AccountError
from server.accounts.store import AccountInfo

from . import store


async def set_operator(url: str, who: str, on: bool) -> AccountInfo:
    async def work(session: AsyncSession) -> AccountInfo:
        account = await find(session, who)
        if account.deleted:
            raise AccountError("not_found", f"no account {who!r}", 404)
        await store.set_operator(session, account.id, on)
        await store.record(session, None, store.OPERATOR if on else store.NOT_OPERATOR,
                           f"#{account.id}", account.name)
        return account
    return await with_session(url, work)

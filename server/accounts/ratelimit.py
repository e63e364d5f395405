"""Password sign-in attempts, limited per account AND per client address: after LIMIT
failures within WINDOW under either key, sign-in by password is refused (`rate_limited`)
until the oldest failure leaves the window. Counted in the database, so the limit holds
across the instances of a cluster and across restarts. A success clears the account's
count (not the address's: an address guessing many names stays limited)."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from . import store
from .errors import AccountError

LIMIT = 5
WINDOW = timedelta(minutes=15)


def account_key(account_id: int) -> str:
    return f"account:{account_id}"


def address_key(address: str) -> str:
    return f"address:{address[:140]}"


async def check(session: AsyncSession, keys: list[str], now: datetime) -> None:
    for key in keys:
        if await store.failures(session, key, now - WINDOW) >= LIMIT:
            minutes = int(WINDOW.total_seconds() // 60)
            raise AccountError("rate_limited",
                               f"too many failed sign-ins: try again in {minutes} minutes",
                               429)


async def failed(session: AsyncSession, keys: list[str], now: datetime) -> None:
    await store.add_failures(session, keys, now, before=now - WINDOW)


async def succeeded(session: AsyncSession, account_id: int) -> None:
    await store.clear_failures(session, account_key(account_id))

"""Password sign-in attempts, limited per account AND per client address: after LIMIT
failures within WINDOW under either key, sign-in by password is refused (`rate_limited`)
until the oldest failure leaves the window. Counted in the database, so the limit holds
across the instances of a cluster and across restarts. A success clears the account's
count (not the address's: an address guessing many names stays limited).

The limit holds under simultaneous attempts too: an attempt is written under its keys,
counted and, if over the limit, taken back, all in one transaction that attempts under
the same key take one after another (SQLite: the write lock, from the first write to the
commit; PostgreSQL: a transaction advisory lock per key, `store.lock_keys`). So the k-th
attempt counts every earlier one still standing, and no more than LIMIT are checked,
however many arrive at once (one that waits DB_TIMEOUT for its turn is refused too:
server.db.errors.waited_too_long). A refused attempt leaves no row (a refusal is no failure);
a successful one's are taken back; a failed one's stay as its record.
"""

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


def limited() -> AccountError:
    minutes = int(WINDOW.total_seconds() // 60)
    return AccountError("rate_limited",
                        f"too many failed sign-ins: try again in {minutes} minutes", 429)


async def reserve(session: AsyncSession, keys: list[str], now: datetime) -> list[int] | None:
    """Write this attempt under each key and count: its rows, or None if any key is over
    the limit (then nothing is kept). The caller's transaction holds nothing else."""
    await store.lock_keys(session, keys)
    rows = await store.add_failures(session, keys, now)
    for key in keys:
        if await store.failures(session, key, now - WINDOW) > LIMIT:
            await store.drop_failures(session, rows)
            return None
    return rows


async def release(session: AsyncSession, rows: list[int]) -> None:
    """Take back an attempt that was refused (not a failure) or succeeded."""
    await store.drop_failures(session, rows)


async def forget_old(session: AsyncSession, now: datetime) -> None:
    """Failures that left the window go (in a transaction of its own: it holds no key's
    lock, so it waits for no attempt and no attempt waits for it)."""
    await store.drop_old_failures(session, now - WINDOW)


async def succeeded(session: AsyncSession, account_id: int) -> None:
    await store.clear_failures(session, account_key(account_id))

"""Password sign-in attempts, counted per (account, client address) pair with a growing
delay. A pair's first FREE failures cost nothing; after its n-th (n >= FREE) the pair's
next attempt waits `delay(n)` from that failure: 1 minute, then 2, 4, 8, then 15 minutes
for every later one; until then it is refused (`rate_limited`, saying how long) and
nothing is checked. A pair's failures count for MEMORY (a day) and are forgotten at once
when it signs in. So one address guessing one account's password gets 5 guesses, then
4 more in 15 minutes, then 4 an hour; the owner at their own address is another pair and
still gets in, and failures under other names never hold up an address's own account.
An unknown name is a pair of its own (its name key, the address): it is answered exactly
as an account's would be. Passkeys are not limited here (a passkey cannot be guessed).

Counted in the database, so the delay holds across the instances of a cluster and across
restarts. Attempts on one pair are taken in turn: in memory within an instance (the
route holds the pair's `turns.KeyedLocks` key, so a burst waits there and holds no
connection), and on PostgreSQL under a transaction advisory lock per pair across
instances too (`store.lock_keys`). An attempt is written first (its row), then the
pair's earlier failures are counted in the same transaction: if the pair must still
wait, the row is taken back and the attempt refused; else it stands as a failure until
the password proves right. So an attempt whose answer never came (a crash while the
password was being hashed) counts against its pair.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from . import store
from .errors import AccountError

FREE = 5
FIRST_DELAY = timedelta(minutes=1)
LONGEST_DELAY = timedelta(minutes=15)
MEMORY = timedelta(days=1)


def pair_key(who: str, address: str) -> str:
    """The key of an attempt: `who` is `account:<id>`, or `name:<name key>` for a name no
    account has; the client address as the server sees it (behind a trusted proxy, the
    address it names)."""
    return f"{who[:60]} address:{address[:90]}"


def account_who(account_id: int) -> str:
    return f"account:{account_id}"


def name_who(key: str) -> str:
    return f"name:{key}"


def delay(failures: int) -> timedelta:
    """How long a pair with `failures` failures waits after the last one."""
    if failures < FREE:
        return timedelta(0)
    return min(FIRST_DELAY * 2 ** (failures - FREE), LONGEST_DELAY)


def limited(wait: timedelta) -> AccountError:
    seconds = max(1, math.ceil(wait.total_seconds()))
    when = f"{seconds} seconds" if seconds < 120 else f"{math.ceil(seconds / 60)} minutes"
    return AccountError("rate_limited", "too many failed sign-ins with this name from this "
                        f"address: try again in {when}", 429)


async def attempt(session: AsyncSession, key: str, now: datetime) -> int | timedelta:
    """Write this attempt under `key` and count the pair's failures before it: the
    attempt's row, or how long the pair must still wait (then nothing is kept). The
    caller's transaction holds nothing else."""
    await store.lock_keys(session, [key])
    [row] = await store.add_failures(session, [key], now)
    failures, last = await store.failures_before(session, key, now - MEMORY, row)
    wait = timedelta(0) if last is None else last + delay(failures) - now
    if wait > timedelta(0):
        await store.drop_failures(session, [row])
        return wait
    return row


async def succeeded(session: AsyncSession, key: str) -> None:
    """The password was right: the pair's failures (this attempt's row among them) go."""
    await store.clear_failures(session, key)


async def forget_old(session: AsyncSession, now: datetime) -> None:
    """Failures older than MEMORY go (in a transaction of its own: it holds no pair's
    lock, so it waits for no attempt and no attempt waits for it)."""
    await store.drop_old_failures(session, now - MEMORY)

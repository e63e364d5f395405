"""How much one address or one account may do with names (issue 41.7), from the settings:

- sign-ups: SIGN_UPS_PER_ADDRESS accounts from one client address per
  SIGN_UP_WINDOW_HOURS (`sign_ups` rows, written and counted in the transaction that makes
  the account, one at a time per address, as ratelimit.py counts sign-in failures);
- renames: RENAMES_PER_ACCOUNT per RENAME_WINDOW_DAYS (counted on the account's old names);
- held names: an account holds only its last NAMES_HELD old names, each for NAME_HOLD_DAYS
  after it was left, and a deleted account's name for NAME_HOLD_DAYS: no other account or
  guest may take them meanwhile (store.holder). The history keeps every old name.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from server.config import Settings

from . import store
from .errors import AccountError


@dataclass(frozen=True, slots=True)
class Limits:
    sign_ups: int
    sign_up_window: timedelta
    renames: int
    rename_window: timedelta
    hold: store.NameHold

    @classmethod
    def of(cls, settings: Settings) -> Limits:
        return cls(settings.SIGN_UPS_PER_ADDRESS,
                   timedelta(hours=settings.SIGN_UP_WINDOW_HOURS),
                   settings.RENAMES_PER_ACCOUNT, timedelta(days=settings.RENAME_WINDOW_DAYS),
                   store.NameHold(settings.NAMES_HELD, timedelta(days=settings.NAME_HOLD_DAYS)))


def _span(window: timedelta) -> str:
    hours = window.total_seconds() / 3600
    if hours < 48:
        return f"{hours:g} hours"
    return f"{hours / 24:g} days"


def sign_up_key(address: str) -> str:
    return f"sign-up:{address[:140]}"


def too_many_sign_ups(limits: Limits) -> AccountError:
    return AccountError("too_many_sign_ups",
                        f"at most {limits.sign_ups} accounts may be made from one address "
                        f"in {_span(limits.sign_up_window)}", 429)


async def check_sign_up(session: AsyncSession, address: str, limits: Limits,
                        now: datetime) -> None:
    """Refuse (too_many_sign_ups) an address that has made its limit already; nothing is
    written (a passkey sign-up asks this before its ceremony)."""
    if await store.sign_ups(session, address, now - limits.sign_up_window) >= limits.sign_ups:
        raise too_many_sign_ups(limits)


async def count_sign_up(session: AsyncSession, address: str, limits: Limits,
                        now: datetime) -> None:
    """Write this sign-up and count, in the transaction that makes the account (one at a
    time per address): refused, the transaction is rolled back with the row."""
    await store.lock_keys(session, [sign_up_key(address)])
    await store.add_sign_up(session, address, now, now - limits.sign_up_window)
    if await store.sign_ups(session, address, now - limits.sign_up_window) > limits.sign_ups:
        raise too_many_sign_ups(limits)


async def check_rename(session: AsyncSession, account_id: int, limits: Limits,
                       now: datetime) -> None:
    """Refuse (too_many_renames) an account renamed its limit of times in the window."""
    if await store.renames(session, account_id, now - limits.rename_window) >= limits.renames:
        raise AccountError("too_many_renames",
                           f"an account may be renamed {limits.renames} times in "
                           f"{_span(limits.rename_window)}", 429)

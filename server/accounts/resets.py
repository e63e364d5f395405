"""A forgotten password's one-time link: `/account/reset#token=<secret>`.

- The secret is 32 random bytes (base64url); only its sha256 is kept (`password_resets`),
  so a copy of the database opens no account.
- Good for RESET_TTL (30 minutes) and once: taking it marks it used in the same statement
  that checks it is unused and unexpired, so two tabs cannot both use it. Setting a new
  password (by any link, or on the account page) also ends the account's other links.
- At most RESETS_PER_ACCOUNT links in RESETS_WINDOW per account: a further request is not
  refused aloud (that would tell who has an account), it makes no link (`new_link` None).
  The per-mailbox and per-client limits are the mail's (server/notify/account_mail.py).
- The fragment (`#token=`) never reaches a server's logs, nor another site in a Referer;
  the page posts it (`POST /api/password/reset`).
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from sqlalchemy import delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from server.db.models import PasswordReset

from .errors import AccountError

RESET_TTL = timedelta(minutes=30)
RESETS_PER_ACCOUNT = 3
RESETS_WINDOW = timedelta(hours=1)
KEPT = timedelta(days=1)  # used and expired links are deleted after this
TOKEN_MAX = 128


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


async def new_link(session: AsyncSession, account_id: int, now: datetime) -> str | None:
    """A new link's secret for the account, or None when it had RESETS_PER_ACCOUNT links in
    RESETS_WINDOW. The caller holds the account's row (or its lock) for the count."""
    await session.execute(delete(PasswordReset).where(PasswordReset.expires_at < now - KEPT))
    recent = await session.scalar(select(func.count()).select_from(PasswordReset).where(
        PasswordReset.account_id == account_id,
        PasswordReset.created_at > now - RESETS_WINDOW)) or 0
    if recent >= RESETS_PER_ACCOUNT:
        return None
    token = secrets.token_urlsafe(32)
    session.add(PasswordReset(account_id=account_id, token_hash=token_hash(token),
                              created_at=now, expires_at=now + RESET_TTL))
    await session.flush()
    return token


def invalid_link() -> AccountError:
    return AccountError("reset_invalid", "this password reset link is used, has run out "
                        "(30 minutes) or was never made; ask for a new one", 409)


async def take(session: AsyncSession, token: str, now: datetime) -> int:
    """The account a link resets, the link used up at once (reset_invalid: unknown, used or
    expired). Whatever follows in the caller's transaction, a refusal changes nothing."""
    if not token or len(token) > TOKEN_MAX:
        raise invalid_link()
    digest = token_hash(token)
    account_id = await session.scalar(select(PasswordReset.account_id).where(
        PasswordReset.token_hash == digest))
    taken = await session.execute(update(PasswordReset).where(
        PasswordReset.token_hash == digest, PasswordReset.used_at.is_(None),
        PasswordReset.expires_at > now).values(used_at=now))
    if account_id is None or getattr(taken, "rowcount", 0) != 1:
        raise invalid_link()
    return int(account_id)


async def check(session: AsyncSession, token: str, now: datetime) -> None:
    """reset_invalid unless the link may still be used (the page asks before the form)."""
    found = await session.scalar(select(PasswordReset.id).where(
        PasswordReset.token_hash == token_hash(token[:TOKEN_MAX]),
        PasswordReset.used_at.is_(None), PasswordReset.expires_at > now))
    if found is None or len(token) > TOKEN_MAX:
        raise invalid_link()


async def end_links(session: AsyncSession, account_id: int, now: datetime) -> None:
    """The account has a new password: none of its links still works."""
    await session.execute(update(PasswordReset).where(
        PasswordReset.account_id == account_id, PasswordReset.used_at.is_(None))
        .values(used_at=now))

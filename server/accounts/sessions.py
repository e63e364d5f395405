"""Server-side sessions: the cookie `cr_session` holds a random secret, the database the
sha256 of it (a stolen database holds no cookie). Signing out deletes the row; a session
ends SESSION_DAYS after it was opened, and `last_seen_at` is written at most once a minute.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from . import store
from .store import AccountInfo

COOKIE = "cr_session"
TOUCH_EVERY = timedelta(minutes=1)
USER_AGENT_MAX = 120
ADDRESS_MAX = 64


def session_id(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def handle(sid: str) -> str:
    """What the sessions list calls a session: derived from its row's id, so signing one out
    by it needs no secret on the page, and the page never holds the id (the cookie's hash)."""
    return hashlib.sha256(f"handle:{sid}".encode()).hexdigest()[:24]


async def open_session(session: AsyncSession, account_id: int, now: datetime, days: float,
                       user_agent: str | None, address: str | None = None) -> str:
    """A new session for the account; returns the cookie's secret (kept nowhere else)."""
    secret = secrets.token_urlsafe(32)
    await store.drop_expired_sessions(session, now)
    await store.add_session(session, session_id(secret), account_id, now,
                            now + timedelta(days=days),
                            (user_agent or "")[:USER_AGENT_MAX] or None,
                            (address or "")[:ADDRESS_MAX] or None)
    return secret


async def account_of(session: AsyncSession, secret: str | None,
                     now: datetime) -> AccountInfo | None:
    """The usable account a cookie's secret signs in, or None (no cookie, unknown, expired,
    the account disabled or deleted). Touches `last_seen_at` at most once a minute."""
    if not secret or len(secret) > 128:
        return None
    sid = session_id(secret)
    row = await store.session_row(session, sid)
    if row is None:
        return None
    account_id, last_seen, expires_at = row
    if expires_at <= now:
        await store.end_session(session, sid)
        return None
    account = await store.get_account(session, account_id)
    if account is None or not account.usable:
        return None
    if now - last_seen >= TOUCH_EVERY:
        await store.touch_session(session, sid, now)
    return account


async def close_session(session: AsyncSession, secret: str | None) -> None:
    if secret:
        await store.end_session(session, session_id(secret))


def cookie(secret: str, *, secure: bool, days: float) -> dict[str, Any]:
    """The cookie's attributes (Starlette's set_cookie arguments): HttpOnly, SameSite=Lax,
    Secure over HTTPS, for the whole site."""
    return {"key": COOKIE, "value": secret, "max_age": int(days * 86400), "path": "/",
            "httponly": True, "samesite": "lax", "secure": secure}


def cleared(*, secure: bool) -> dict[str, Any]:
    """delete_cookie's arguments for the same cookie."""
    return {"key": COOKIE, "path": "/", "httponly": True, "samesite": "lax", "secure": secure}

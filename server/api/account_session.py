"""Who is signed in, for any route: the session cookie read against the database, the
cookie set and cleared, the relying party passkeys are bound to, and the same-site check
every state-changing request that uses the cookie passes.

The Guard (security.py) already refuses a state change from a foreign Origin, unless
ALLOWED_ORIGINS lets it in (`*`, or a listed site, for bots and embedding pages): those
may play by token, but never act with a player's session. So a request that carries the
session cookie must come from this very site (or a listed origin, never `*`): its Origin
says so, or without one, its Sec-Fetch-Site (same-origin, or none: the user's own doing).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Annotated, Any, TypeVar
from urllib.parse import urlsplit

from fastapi import Depends, Request, Response
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession, async_sessionmaker
from starlette.requests import HTTPConnection

from server.accounts import sessions
from server.accounts.errors import AccountError, not_signed_in
from server.accounts.limits import Limits
from server.accounts.names import name_key
from server.accounts.passkeys import RelyingParty
from server.accounts.passwords import Cost
from server.accounts.store import AccountInfo, key_taken
from server.accounts.turns import Late, Turns
from server.db.errors import is_unavailable
from server.db.models import utcnow
from server.db.sqlite_reader import SqliteReader

from .security import host_name

Sessions = async_sessionmaker[AsyncSession]
T = TypeVar("T")
log = logging.getLogger(__name__)


def database(request: Request) -> Sessions:
    factory = getattr(request.app.state, "db_sessions", None)
    if factory is None:
        raise AccountError("accounts_need_database",
                           "this server keeps no database, so it has no accounts", 503)
    return factory


DB = Annotated[Sessions, Depends(database)]


def secure(request: Request) -> bool:
    """Whether the cookie is Secure: the request came over HTTPS (as the proxy says, when
    FORWARDED_ALLOW_IPS trusts it), or the site's PUBLIC_URL is https."""
    public = request.app.state.settings.public_origin
    return request.url.scheme == "https" or public.startswith("https://")


def check_same_site(request: Request) -> None:
    """Refuse (foreign_origin) a state change carrying the session cookie from another
    site; a no-op for reads."""
    if request.method in ("GET", "HEAD") or sessions.COOKIE not in request.cookies:
        return
    origin = request.headers.get("origin")
    if origin is None:
        # Nothing but the browser's own word says where it comes from; without that either
        # (an old browser, a script holding a stolen cookie), it is not this site (41.13).
        if request.headers.get("sec-fetch-site") not in ("same-origin", "none"):
            raise _foreign()
        return
    origin = origin.rstrip("/")
    listed = [o for o in request.app.state.settings.ALLOWED_ORIGINS if o != "*"]
    if origin in listed or urlsplit(origin).netloc.lower() == request.headers.get(
            "host", "").lower():
        return
    raise _foreign()


def _foreign() -> AccountError:
    return AccountError("foreign_origin",
                        "another site may not act with this site's sign-in", 403)


class Unreachable(Exception):
    """The database did not answer a request's account question in time."""


WAITS = 5  # a request waits at most WAITS × DB_TIMEOUT for each of its turns (turns.py)


def deadline(request: HTTPConnection) -> float:
    """Until when (the loop's clock) a request waits for its next turn at the database."""
    return asyncio.get_running_loop().time() + WAITS * request.app.state.settings.DB_TIMEOUT


def turns(request: HTTPConnection) -> Turns:
    return request.app.state.account_turns


async def password_work(request: Request, work: Callable[..., T], *args: object) -> T:
    """A password hash or check (`work(*args, cost=...)`, at the settings' Argon2 cost) in
    the hashing turn (one Argon2 at a time per few cores: parallel ones starve the event
    loop), off the loop."""
    cost = Cost.of(request.app.state.settings)
    return await turns(request).hashing.run(
        lambda: asyncio.to_thread(work, *args, cost=cost), None)


async def ask(request: HTTPConnection, factory: Sessions,
              question: Callable[[AsyncSession], Awaitable[T]], until: float | None = None) -> T:
    """`question` in a transaction of its own once its turn comes (a burst waits in
    memory, not for the pool or a lock). Unreachable if the turn or the answer does not
    come in time, or the database cannot take the transaction now (a pool, lock or
    statement timeout, a lost connection): a database that is down, full or frozen must
    not hang or break a route. A refusal of the transaction itself (a bug) goes through."""

    async def transaction() -> T:
        async with factory() as session, session.begin():
            return await question(session)

    return await _in_turn(request, transaction, until)


async def read(request: HTTPConnection, engine: AsyncEngine,
               question: Callable[[AsyncConnection], Coroutine[Any, Any, T]]) -> T:
    """`question` on a plain connection of its own (no ORM session, nothing to commit),
    in the same turns and with the same refusals as `ask`: for a read on a busy path (a
    guest's name check at every join), where a session's begin, commit and close cost the
    loop about a third more CPU than the statement itself (issue 42)."""

    reader: SqliteReader | None = getattr(request.app.state, "db_reader", None)

    async def reading() -> T:
        if reader is not None:  # SQLite: the whole read in one trip to a thread
            return await reader.read(question)
        async with engine.connect() as connection:
            return await question(connection)

    return await _in_turn(request, reading, None)


async def in_turn(request: HTTPConnection, work: Callable[[], Awaitable[T]]) -> T:
    """`work`, which opens its own transactions (a service keeping its own sessions: the
    account's mail), in the same turns and with the same refusals as `ask`."""
    return await _in_turn(request, work, None)


async def _in_turn(request: HTTPConnection, work: Callable[[], Awaitable[T]],
                   until: float | None) -> T:
    try:
        return await turns(request).gate.run(work, until or deadline(request))
    except Late:
        log.warning("accounts: no turn at the database in time")
        raise Unreachable from None
    except (SQLAlchemyError, OSError, TimeoutError) as exc:
        if not is_unavailable(exc):
            raise
        log.warning("accounts: the database did not answer (%r)", exc)
        raise Unreachable from exc


def unavailable(what: str) -> AccountError:
    return AccountError("unavailable", f"{what} right now; try again in a moment", 503)


async def signed_in(request: Request) -> AccountInfo | None:
    """The signed-in account, or None (no database, no cookie, a dead session). A state
    change with the cookie from another site is refused; while the database cannot say who
    the cookie belongs to, the request is refused as unavailable (503)."""
    factory = getattr(request.app.state, "db_sessions", None)
    secret = request.cookies.get(sessions.COOKIE)
    if factory is None or not secret:
        return None
    check_same_site(request)
    try:
        return await ask(request, factory,
                         lambda session: sessions.account_of(session, secret, utcnow()))
    except Unreachable:
        raise unavailable("the database cannot say who you are") from None


async def account(request: Request, db: DB) -> AccountInfo:
    """The signed-in account, or 401 not_signed_in."""
    found = await signed_in(request)
    if found is None:
        raise not_signed_in()
    return found


Me = Annotated[AccountInfo, Depends(account)]


async def sign_in(request: Request, response: Response, session: AsyncSession,
                  account_id: int) -> None:
    """Open a session for the account (in the caller's transaction) and set its cookie."""
    settings = request.app.state.settings
    secret = await sessions.open_session(session, account_id, utcnow(), settings.SESSION_DAYS,
                                         request.headers.get("user-agent"),
                                         request.client.host if request.client else None)
    response.set_cookie(**sessions.cookie(secret, secure=secure(request),
                                          days=settings.SESSION_DAYS))


def sign_out(request: Request, response: Response) -> None:
    response.delete_cookie(**sessions.cleared(secure=secure(request)))


def relying_party(request: Request) -> RelyingParty:
    """PUBLIC_URL's origin, else this request's own scheme and Host (the Guard allowed it)."""
    public = request.app.state.settings.public_origin
    if public:
        return RelyingParty(urlsplit(public).hostname or "", public)
    host = request.headers.get("host", "")
    return RelyingParty(host_name(host), f"{request.url.scheme}://{host}")


async def refuse_account_name(request: HTTPConnection, name: str) -> None:
    """A guest may not sit under an account's name (name_taken); no database, no accounts.
    A name that cannot be checked in time is refused as unavailable (503): a guest is never
    seated under a name that may be an account's."""
    engine = getattr(request.app.state, "db_engine", None)
    if engine is None:
        return
    try:
        hold = Limits.of(request.app.state.settings).hold
        taken = await read(request, engine, lambda connection: key_taken(
            connection, name_key(name), hold, utcnow()))
    except Unreachable:
        raise unavailable("the name cannot be checked against the accounts' names") from None
    if taken:
        raise AccountError("name_taken",
                           "that name belongs to an account: sign in to sit under it", 409)

"""Accounts over HTTP: sign up (a password or a passkey), sign in (a passkey or a
password), sign out. What a signed-in player can do is in me.py.

Every route needs the database (else 503 accounts_need_database). Password hashing runs
in a thread, off the event loop, one hash at a time per few cores (account_session.
password_work), sign-ups and password changes as much as sign-ins.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any, TypeVar

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from server.accounts import passkeys, ratelimit, sessions, store
from server.accounts.errors import AccountError, bad_credentials
from server.accounts.limits import Limits, check_sign_up, count_sign_up
from server.accounts.names import name_key
from server.accounts.passwords import hash_password, verify_password
from server.accounts.reserved import check_name
from server.accounts.turns import Late
from server.bots.levels import LEVELS
from server.db.models import utcnow
from server.rooms.ratelimit import RateLimit
from server.rooms.seating import clean_name

from .account_models import AccountName, Empty, PasskeyAnswer, PasswordSignIn, SignUp
from .account_session import (
    DB,
    Sessions,
    Unreachable,
    ask,
    check_same_site,
    deadline,
    password_work,
    relying_party,
    sign_in,
    sign_out,
    turns,
    unavailable,
)
from .errors import EVERY_ROUTE, STATE_CHANGING, answers

router = APIRouter(responses={**EVERY_ROUTE, **STATE_CHANGING, **answers(401, 429, 503)})
OK = {"ok": True}
T = TypeVar("T")
SIGN_IN_BUSY = "the database cannot take this sign-in"


def account_name(raw: str) -> tuple[str, str]:
    """(name, key) of a name an account may take: a valid seat name (name_invalid,
    invisible_text) that would not pass for a bot (name_reserved)."""
    name = check_name(clean_name(raw), LEVELS)
    return name, name_key(name)


def name_taken() -> AccountError:
    return AccountError("name_taken", "another account has that name (or one that looks "
                        "the same)", 409)


def limits(request: Request) -> Limits:
    return Limits.of(request.app.state.settings)


async def _create(session: AsyncSession, request: Request, name: str, key: str,
                  password_hash: str | None) -> int:
    """The account, made in the caller's transaction: refused if its name is taken or held
    (name_taken), or if this address made its limit of accounts (too_many_sign_ups)."""
    now = utcnow()
    if await store.key_taken(session, key, limits(request).hold, now):
        raise name_taken()
    await count_sign_up(session, client_address(request), limits(request), now)
    try:
        return await store.create_account(session, name, key, password_hash, now)
    except IntegrityError:  # the same key, created in between
        raise name_taken() from None


def client_address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def per_address(group: str) -> Any:
    """A route dependency: at most the group's rate of requests a minute from one client
    address (app.state.address_limits, server.wiring.routes: RESET_RATE for "reset",
    SESSIONS_RATE for "sessions"); past it 429 rate_limited, before anything is read."""

    def limited(request: Request) -> None:
        limit: RateLimit = request.app.state.address_limits[group]
        if not limit.hit(client_address(request)):
            raise AccountError("rate_limited", "too many requests from this address; wait a "
                               "minute", 429)

    return Depends(limited)


@router.post("/api/accounts", status_code=201)
async def create_account(body: SignUp, request: Request, db: DB) -> JSONResponse:
    """A new account with a password; signed in at once. At most SIGN_UPS_PER_ADDRESS
    accounts per client address in SIGN_UP_WINDOW_HOURS (too_many_sign_ups)."""
    check_same_site(request)
    name, key = account_name(body.name)
    hashed = await password_work(request, hash_password, body.password)
    response = JSONResponse({}, status_code=201)
    async with db() as session, session.begin():
        account_id = await _create(session, request, name, key, hashed)
        await sign_in(request, response, session, account_id)
    return with_body(response, {"id": account_id, "name": name})


@router.post("/api/accounts/passkey/begin")
async def sign_up_with_passkey(body: AccountName, request: Request, db: DB) -> dict[str, Any]:
    """The options to create a passkey for a new account named `name` (not taken yet)."""
    check_same_site(request)
    name, key = account_name(body.name)
    now = utcnow()
    async with db() as session, session.begin():
        if await store.key_taken(session, key, limits(request).hold, now):
            raise name_taken()
        await check_sign_up(session, client_address(request), limits(request), now)
        options = await passkeys.begin_registration(
            session, relying_party(request), passkeys.SIGN_UP, None,
            secrets.token_bytes(16), name, [], {"name": name}, utcnow())
    return {"options": options}


@router.post("/api/accounts/passkey/finish", status_code=201)
async def sign_up_with_passkey_finish(body: PasskeyAnswer, request: Request,
                                      db: DB) -> JSONResponse:
    """The browser's new passkey: the account is created with it, and signed in."""
    check_same_site(request)
    async with db() as session, session.begin():  # consumed even if what follows fails
        challenge, _, data = await passkeys.take(session, body.credential, passkeys.SIGN_UP,
                                                 utcnow())
    new = passkeys.verify_registration(relying_party(request), body.credential, challenge)
    name, key = account_name(str(data.get("name", "")))
    response = JSONResponse({}, status_code=201)
    async with db() as session, session.begin():
        account_id = await _create(session, request, name, key, None)
        await _add_passkey(session, account_id, new)
        await sign_in(request, response, session, account_id)
    return with_body(response, {"id": account_id, "name": name})


async def _add_passkey(session: AsyncSession, account_id: int,
                       new: passkeys.NewPasskey) -> None:
    if await store.passkey(session, new.credential_id) is not None:
        raise passkeys.rejected("this passkey is registered already")
    await store.add_passkey(session, account_id, new.credential_id, new.public_key,
                            new.sign_count, new.transports, utcnow())


def with_body(response: JSONResponse, content: dict[str, Any]) -> JSONResponse:
    """`content` as the body of a response made first (sign_in set its cookie on it)."""
    response.body = response.render(content)
    response.headers["content-length"] = str(len(response.body))
    return response


@router.post("/api/sign-in/passkey/begin")
async def sign_in_with_passkey(body: Empty, request: Request, db: DB) -> dict[str, Any]:
    """The options to sign in with a passkey saved on this device (no name asked)."""
    check_same_site(request)
    options = await _in_turn(request, db, lambda session: passkeys.begin_authentication(
        session, relying_party(request), utcnow()))
    return {"options": options}


@router.post("/api/sign-in/passkey/finish")
async def sign_in_with_passkey_finish(body: PasskeyAnswer, request: Request,
                                      db: DB) -> JSONResponse:
    check_same_site(request)
    now = utcnow()
    # Consumed even if what follows fails.
    challenge, _, _ = await _in_turn(request, db, lambda session: passkeys.take(
        session, body.credential, passkeys.SIGN_IN, now))

    async def found(session: AsyncSession) -> tuple[store.PasskeyInfo | None,
                                                    store.AccountInfo | None]:
        key = await store.passkey(session, passkeys.credential_id(body.credential))
        return key, None if key is None else await store.get_account(session, key.account_id)

    key, account = await _in_turn(request, db, found)
    if key is None or account is None:
        raise passkeys.rejected("this passkey belongs to no account here")
    count = passkeys.verify_assertion(relying_party(request), body.credential, challenge, key)
    if not account.usable:
        raise passkeys.rejected("this account may not sign in")
    response = JSONResponse({})

    async def signed_in(session: AsyncSession) -> None:
        await store.passkey_used(session, key.id, count, now)
        await sign_in(request, response, session, account.id)

    await _in_turn(request, db, signed_in)
    return with_body(response, {"id": account.id, "name": account.name})


@router.post("/api/sign-in/password")
async def sign_in_with_password(body: PasswordSignIn, request: Request,
                                db: DB) -> JSONResponse:
    """Failures are counted per account and client address, with a growing delay: after 5,
    the next attempt from that address waits 1 minute, then 2, 4, 8, then 15 for each
    (server/accounts/ratelimit.py). Attempts under one pair are taken one at a time,
    however many arrive at once; 503 unavailable when the database cannot take one in time."""
    check_same_site(request)
    key = name_key(body.name)
    account = await _in_turn(request, db, lambda session: store.account_by_key(session, key))
    who = ratelimit.name_who(key) if account is None else ratelimit.account_who(account.id)
    pair = ratelimit.pair_key(who, client_address(request))
    try:
        async with turns(request).keys.hold(pair, deadline(request)):
            return await _attempt(request, db, body.password, account, pair)
    except Late:
        raise unavailable(SIGN_IN_BUSY) from None


async def _in_turn(request: Request, db: Sessions,
                   question: Callable[[AsyncSession], Awaitable[T]]) -> T:
    """A sign-in's transaction in its turn (account_session.ask); 503 unavailable if the
    database cannot take it in time."""
    try:
        return await ask(request, db, question)
    except Unreachable:
        raise unavailable(SIGN_IN_BUSY) from None


async def _attempt(request: Request, db: Sessions, password: str,
                   account: store.AccountInfo | None, pair: str) -> JSONResponse:
    """One password attempt, with its pair's turn held."""
    now = utcnow()
    row = await _in_turn(request, db, lambda session: ratelimit.attempt(session, pair, now))
    if isinstance(row, timedelta):
        raise ratelimit.limited(row)
    stored = account.password_hash if account is not None and account.usable else None
    ok = await password_work(request, verify_password, password, stored)
    if not ok or account is None:  # the attempt's row stays: a failure
        with contextlib.suppress(Unreachable):  # old rows go next time
            await ask(request, db, lambda session: ratelimit.forget_old(session, now))
        raise bad_credentials()
    response = JSONResponse({})

    async def signed_in(session: AsyncSession) -> None:
        await ratelimit.succeeded(session, pair)
        await sign_in(request, response, session, account.id)

    await _in_turn(request, db, signed_in)
    return with_body(response, {"id": account.id, "name": account.name})


@router.post("/api/sign-out")
async def sign_out_route(body: Empty, request: Request, db: DB) -> JSONResponse:
    """Ends this browser's session (its row is deleted) and clears the cookie."""
    check_same_site(request)
    async with db() as session, session.begin():
        await sessions.close_session(session, request.cookies.get(sessions.COOKIE))
    response = JSONResponse(OK)
    sign_out(request, response)
    return response

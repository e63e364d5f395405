"""A forgotten password (server/accounts/resets.py, server/notify/account_mail.py).

`POST /api/password/forgot` answers 202 the same for any well-formed address, whether an
account has it or not; the link goes out after the answer. `POST /api/password/reset`
takes the mailed link's secret and a new password (the sign-up's rules, Argon2 at the
settings' cost): the link is used up, the account's other links and every one of its
sessions end (their lobby sockets close), and this browser is signed in anew.
"""

from __future__ import annotations

from datetime import datetime

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.background import BackgroundTask

from server.accounts import resets, store
from server.accounts.passwords import check_password, hash_password
from server.accounts.turns import Late
from server.db.models import utcnow
from server.notify import AccountMail
from server.notify.addresses import normalize

from .account_models import ForgotPassword, ResetLink, ResetPassword
from .account_session import (
    DB,
    Sessions,
    Unreachable,
    check_same_site,
    deadline,
    in_turn,
    password_work,
    sign_in,
    turns,
    unavailable,
)
from .accounts import client_address, per_address, with_body
from .errors import EVERY_ROUTE, STATE_CHANGING, answers
from .notify import mail_off
from .quickplay import signed_out

router = APIRouter(responses={**EVERY_ROUTE, **STATE_CHANGING, **answers(409, 503)})
SENT = {"ok": True}


def account_mail(request: Request) -> AccountMail:
    found: AccountMail | None = getattr(request.app.state, "account_mail", None)
    if found is None:
        raise mail_off()
    return found


@router.post("/api/password/forgot", status_code=202, responses=answers(422, 429))
async def forgot(body: ForgotPassword, request: Request, db: DB) -> JSONResponse:
    """Mail a one-time link to set a new password to each account that confirmed this
    address. The same answer (202) for every well-formed address, known or not; a client
    address asks at most 20 codes and links an hour (code_flood), a mailbox gets at most 5
    a day, an account 3 links an hour (silently: the answer never says)."""
    check_same_site(request)
    mail = account_mail(request)
    address, client = normalize(body.address), client_address(request)
    # Both in the accounts' turns: a burst waits in memory, where it held every connection
    # of the pool waiting for the client's lock (PostgreSQL), the mail worker's too.
    try:
        await in_turn(request, lambda: mail.forgot(client))
    except Unreachable:
        raise unavailable("the database cannot take this request") from None
    later = BackgroundTask(turns(request).gate.run,
                           lambda: mail.send_links(address, body.lang), None)
    return JSONResponse(SENT, status_code=202, background=later)


@router.post("/api/password/reset/check", responses=answers(429),
             dependencies=[per_address("reset")])
async def check_link(body: ResetLink, request: Request, db: DB) -> dict[str, bool]:
    """Whether the link may still be used (409 reset_invalid if not): the page asks before
    it shows the form. Nothing changes. With the reset: RESET_RATE a minute per client
    address (429 rate_limited)."""
    check_same_site(request)
    now = account_mail(request).wall()
    async with db() as session:
        await resets.check(session, body.token, now)
    return SENT


@router.post("/api/password/reset", responses=answers(422, 429),
             dependencies=[per_address("reset")])
async def reset(body: ResetPassword, request: Request, db: DB) -> JSONResponse:
    """Set a new password by a mailed link (used up: 409 reset_invalid next time); every
    session of the account ends, and this browser is signed in. With the link's check:
    RESET_RATE a minute per client address (429 rate_limited)."""
    check_same_site(request)
    check_password(body.password)
    now = account_mail(request).wall()  # the clock the links were made by
    # One request per link at a time: a burst of one link's resets would otherwise all pass
    # the check and queue a hash each in the hashing turn every sign-in shares.
    try:
        async with turns(request).keys.hold(f"reset:{resets.token_hash(body.token)}",
                                            deadline(request)):
            return await _reset(request, db, body, now)
    except Late:
        raise unavailable("the database cannot take this reset") from None


async def _reset(request: Request, db: Sessions, body: ResetPassword,
                 now: datetime) -> JSONResponse:
    async with db() as session:  # no hashing for a link that cannot be used
        await resets.check(session, body.token, now)
    hashed = await password_work(request, hash_password, body.password)
    response = JSONResponse({})
    async with db() as session, session.begin():
        account_id = await resets.take(session, body.token, now)
        account = await store.get_account(session, account_id)
        if account is None or not account.usable:
            raise resets.invalid_link()
        ended = await end_every_session(session, account_id)
        await store.set_password(session, account_id, hashed)
        await resets.end_links(session, account_id, now)
        await sign_in(request, response, session, account_id)
    signed_out(request.app.state.quickplay, ended)
    return with_body(response, {"id": account.id, "name": account.name})


async def end_every_session(session: AsyncSession, account_id: int,
                            keep: str | None = None) -> set[str]:
    """End the account's sessions (all but `keep`); the ids of those ended, for their
    lobby sockets (api/quickplay.signed_out)."""
    ended = {s.id for s in await store.open_sessions(session, account_id, utcnow())}
    await store.end_sessions(session, account_id, keep=keep)
    return ended - {keep} if keep is not None else ended


"""A signed-in player's ways back in: the e-mail address a forgotten password's link goes
to (confirmed with a mailed code, as a seat's is), and where the account is signed in (its
sessions: each one signed out alone, or all at once).

Every route needs the session cookie (else 401 not_signed_in); a state change carrying it
from another site is refused (foreign_origin). The sessions' routes take SESSIONS_RATE
requests a minute from one client address (then 429 rate_limited).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from server.accounts import sessions, store
from server.accounts.errors import AccountError
from server.db.models import utcnow

from .account_models import (
    AccountAddressBody,
    AddressCode,
    AddressState,
    Empty,
    EndSession,
    SessionList,
)
from .account_session import DB, sign_out
from .account_session import Me as SignedIn
from .accounts import client_address, per_address
from .errors import EVERY_ROUTE, STATE_CHANGING, answers
from .password_reset import account_mail, end_every_session
from .quickplay import signed_out

router = APIRouter(responses={**EVERY_ROUTE, **answers(401, 503)})


@router.get("/api/me/email", response_model=AddressState, responses=answers(409))
async def email_state(request: Request, me: SignedIn) -> dict[str, Any]:
    """The account's address (masked), and one waiting for its code."""
    return await account_mail(request).status(me.id)


@router.post("/api/me/email", response_model=AddressState,
             responses={**STATE_CHANGING, **answers(409, 422, 429)})
async def add_email(body: AccountAddressBody, request: Request,
                    me: SignedIn) -> dict[str, Any]:
    """A new address for the account: a 6-digit code is mailed to it (the same address
    again: sent again, at most once a minute and 5 a day; a mailbox gets at most 5 codes a
    day, a client address asks at most 20 an hour, `code_flood`). The confirmed address, if
    any, stays until the new one is confirmed."""
    return await account_mail(request).add(me.id, body.address, body.lang,
                                            client_address(request))


@router.post("/api/me/email/confirm", response_model=AddressState,
             responses={**STATE_CHANGING, **answers(409, 422)})
async def confirm_email(body: AddressCode, request: Request, me: SignedIn) -> dict[str, Any]:
    """The code mailed to the pending address (15 minutes, 5 tries): it becomes the
    account's address, where a forgotten password's link goes."""
    return await account_mail(request).confirm(me.id, body.code)


@router.post("/api/me/email/remove", responses={**STATE_CHANGING, **answers(409)})
async def remove_email(body: Empty, request: Request, me: SignedIn) -> dict[str, bool]:
    await account_mail(request).remove(me.id)
    return {"ok": True}


def _current(request: Request) -> str | None:
    secret = request.cookies.get(sessions.COOKIE)
    return sessions.session_id(secret) if secret else None


@router.get("/api/me/sessions", response_model=SessionList, responses=answers(429),
            dependencies=[per_address("sessions")])
async def my_sessions(request: Request, me: SignedIn, db: DB) -> dict[str, Any]:
    """Where the account is signed in: each browser's user agent, the address it signed in
    from, when it was last seen; this browser's marked `current`. The last seen first."""
    current = _current(request)
    async with db() as session:
        found = await store.open_sessions(session, me.id, utcnow())
    return {"sessions": [{"id": sessions.handle(s.id), "user_agent": s.user_agent,
                          "address": s.address, "created_at": s.created_at.isoformat(),
                          "last_seen_at": s.last_seen_at.isoformat(),
                          "current": s.id == current} for s in found]}


@router.post("/api/me/sessions/end", responses={**STATE_CHANGING, **answers(404, 429)},
             dependencies=[per_address("sessions")])
async def end_session(body: EndSession, request: Request, me: SignedIn,
                      db: DB) -> JSONResponse:
    """Sign one session out (its lobby sockets close); this browser's own: signed out here
    too (the cookie is cleared). 404 session_unknown if it is not one of the account's."""
    async with db() as session, session.begin():
        found = [s for s in await store.open_sessions(session, me.id, utcnow())
                 if sessions.handle(s.id) == body.session]
        if not found:
            raise AccountError("session_unknown", "that is not one of this account's "
                               "sessions (or it is over already)", 404)
        await store.end_session(session, found[0].id)
    signed_out(request.app.state.quickplay, {found[0].id})
    current = found[0].id == _current(request)
    response = JSONResponse({"ok": True, "current": current})
    if current:
        sign_out(request, response)
    return response


@router.post("/api/me/sessions/end-all", responses={**STATE_CHANGING, **answers(429)},
             dependencies=[per_address("sessions")])
async def end_all_sessions(body: Empty, request: Request, me: SignedIn,
                           db: DB) -> JSONResponse:
    """Sign out everywhere: every session of the account ends, this one too (the cookie is
    cleared), and their lobby sockets close."""
    async with db() as session, session.begin():
        ended = await end_every_session(session, me.id)
    signed_out(request.app.state.quickplay, ended)
    response = JSONResponse({"ok": True})
    sign_out(request, response)
    return response

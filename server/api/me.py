"""What a signed-in player does with their account: who am I, rename, a password, another
passkey, export, delete, and the open tables to go back to (any device).

Every route needs the session cookie (else 401 not_signed_in); a state change carrying it
from another site is refused (foreign_origin, account_session.check_same_site).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from sqlalchemy.exc import IntegrityError

from server.accounts import passkeys, resets, sessions, store
from server.accounts.errors import AccountError, bad_credentials
from server.accounts.limits import check_rename
from server.accounts.passwords import check_password, hash_password, verify_password
from server.db.models import utcnow
from server.rooms import PLAYING, Room, RoomManager
from server.rooms.codes import display

from .account_models import (
    AccountName,
    DeleteAccount,
    Empty,
    Me,
    PasskeyAnswer,
    SetPassword,
    Tables,
)
from .account_seats import unverify_account
from .account_session import DB, password_work, relying_party, sign_out, signed_in
from .account_session import Me as SignedIn
from .accounts import account_name, limits, name_taken
from .errors import EVERY_ROUTE, STATE_CHANGING, answers
from .notify import left_ms
from .password_reset import end_every_session
from .quickplay import signed_out

router = APIRouter(responses={**EVERY_ROUTE, **answers(401, 503)})
OK = {"ok": True}


def _time(at: datetime | None) -> str | None:
    return None if at is None else at.isoformat()


@router.get("/api/me/session")
async def session_state(request: Request) -> dict[str, Any]:
    """Always 200, for the page header: whether this server has accounts, and who is
    signed in here (null: nobody)."""
    if getattr(request.app.state, "db_sessions", None) is None:
        return {"accounts": False, "account": None}
    found = await signed_in(request)
    return {"accounts": True,
            "account": None if found is None else {"id": found.id, "name": found.name}}


@router.get("/api/me", response_model=Me)
async def who_am_i(me: SignedIn, db: DB) -> dict[str, Any]:
    async with db() as session:
        keys = await store.passkeys_of(session, me.id)
    return {"id": me.id, "name": me.name, "created_at": me.created_at.isoformat(),
            "password": me.password_hash is not None,
            "passkeys": [{"id": k.id, "created_at": k.created_at.isoformat(),
                          "last_used_at": _time(k.last_used_at)} for k in keys]}


@router.post("/api/me/name", responses={**STATE_CHANGING, **answers(429)})
async def rename(body: AccountName, request: Request, me: SignedIn, db: DB) -> dict[str, Any]:
    """A new name for the account, at most RENAMES_PER_ACCOUNT times in RENAME_WINDOW_DAYS
    (too_many_renames); games played keep the name they were played under, and the old
    name is kept in the account's history and held for it (its last NAMES_HELD, each for
    NAME_HOLD_DAYS): no other account or guest may take it, and the account may take it
    back."""
    name, key = account_name(body.name)
    now = utcnow()
    rules = limits(request)
    async with db() as session, session.begin():
        await store.lock_keys(session, [f"rename:{me.id}"])
        await check_rename(session, me.id, rules, now)
        if await store.holder(session, key, rules.hold, now) not in (None, me.id):
            raise name_taken()
        try:
            await store.rename(session, me.id, name, key, now)
            await session.flush()
        except IntegrityError:
            raise name_taken() from None
    return {"id": me.id, "name": name}


@router.post("/api/me/password", responses=STATE_CHANGING)
async def set_password(body: SetPassword, request: Request, me: SignedIn,
                       db: DB) -> dict[str, bool]:
    """Set a password (a passkey account may add one), or change it (then `current` must
    match). Other sessions end (their lobby sockets close), and so do reset links."""
    check_password(body.password)
    if me.password_hash is not None and not await password_work(
            request, verify_password, body.current or "", me.password_hash):
        raise bad_credentials()
    hashed = await password_work(request, hash_password, body.password)
    async with db() as session, session.begin():
        await store.set_password(session, me.id, hashed)
        ended = await end_every_session(session, me.id, keep=sessions.session_id(
            request.cookies.get(sessions.COOKIE, "")))
        await resets.end_links(session, me.id, utcnow())
    signed_out(request.app.state.quickplay, ended)
    return OK


@router.post("/api/me/passkeys/begin", responses=STATE_CHANGING)
async def add_passkey(body: Empty, request: Request, me: SignedIn, db: DB) -> dict[str, Any]:
    """The options to create another passkey for this account."""
    async with db() as session, session.begin():
        known = [k.credential_id for k in await store.passkeys_of(session, me.id)]
        options = await passkeys.begin_registration(
            session, relying_party(request), passkeys.ADD_PASSKEY, me.id,
            f"account-{me.id}".encode(), me.name, known, {}, utcnow())
    return {"options": options}


@router.post("/api/me/passkeys/finish", status_code=201, responses=STATE_CHANGING)
async def add_passkey_finish(body: PasskeyAnswer, request: Request, me: SignedIn,
                             db: DB) -> dict[str, bool]:
    async with db() as session, session.begin():  # consumed even if what follows fails
        challenge, account_id, _ = await passkeys.take(session, body.credential,
                                                       passkeys.ADD_PASSKEY, utcnow())
    if account_id != me.id:
        raise passkeys.rejected("this passkey request was made for another account")
    new = passkeys.verify_registration(relying_party(request), body.credential, challenge)
    async with db() as session, session.begin():
        if await store.passkey(session, new.credential_id) is not None:
            raise passkeys.rejected("this passkey is registered already")
        await store.add_passkey(session, me.id, new.credential_id, new.public_key,
                                new.sign_count, new.transports, utcnow())
    return OK


@router.post("/api/me/delete", responses=STATE_CHANGING)
async def delete_account(body: DeleteAccount, request: Request, me: SignedIn,
                         db: DB) -> JSONResponse:
    """Delete the account (its name typed again). Its games stay, as a deleted player's;
    its name is free again; every session ends; its seats at open tables are no longer
    verified."""
    if body.name.strip() != me.name:
        raise AccountError("malformed", "type the account's name to confirm", 422)
    async with db() as session, session.begin():
        await store.delete_account(session, me.id, utcnow())
    await unverify_account(request.app.state.rooms, me.id)
    response = JSONResponse(OK)
    sign_out(request, response)
    return response


@router.get("/api/me/export")
async def export(me: SignedIn, db: DB) -> JSONResponse:
    """Everything kept about this account, as JSON: never another player's data (a game
    appears as this account's own line of it)."""
    async with db() as session:
        keys = await store.passkeys_of(session, me.id)
        names = await store.old_names(session, me.id)
        open_sessions = await store.sessions_of(session, me.id)
        seats = await store.open_seats(session, me.id)
        games = await store.games_of(session, me.id)
        rating = await store.rating_of(session, me.id)
        email = await store.email_of(session, me.id)
    document = {
        "format": "coffee-rush-account/1",
        "exported_at": utcnow().isoformat(),
        "account": {"id": me.id, "name": me.name, "created_at": me.created_at.isoformat(),
                    "password": me.password_hash is not None, "email": email},
        "rating": rating,
        "old_names": [{"name": n, "until": u.isoformat()} for n, u in names],
        "passkeys": [{"credential_id": k.credential_id, "transports": list(k.transports),
                      "created_at": k.created_at.isoformat(),
                      "last_used_at": _time(k.last_used_at)} for k in keys],
        "sessions": [{"created_at": c.isoformat(), "last_seen_at": s.isoformat(),
                      "user_agent": ua} for c, s, ua in open_sessions],
        "open_seats": [{"room": display(s.room_code), "status": s.status, "seat": s.seat,
                        "name": s.name} for s in seats],
        "games": games,
    }
    return JSONResponse(document, headers={
        "content-disposition": 'attachment; filename="coffee-rush-account.json"'})


def _turn(room: Room | None) -> int | None:
    """The seat to act in a room being played here (None: not playing, or elsewhere)."""
    if room is None or room.status != PLAYING or room.game is None:
        return None
    return room.game.current


@router.get("/api/me/tables", response_model=Tables)
async def my_tables(request: Request, me: SignedIn, db: DB) -> dict[str, Any]:
    """The unfinished tables where this account holds a seat, oldest first: whose turn it
    is and the time the seat to act has left (when the room is on this instance), and
    where to get a new seat token."""
    async with db() as session:
        seats = await store.open_seats(session, me.id)
    manager: RoomManager = request.app.state.rooms
    tables = []
    for s in seats:
        room = manager.find(s.room_code)
        turn = _turn(room)
        code = display(s.room_code)
        tables.append({"code": code, "status": s.status if room is None else room.status,
                       "seat": s.seat, "name": s.name, "turn": turn, "your_turn": turn == s.seat,
                       "left_ms": None if turn is None or room is None else left_ms(room),
                       "names": None if room is None else [seat.name for seat in room.seats],
                       "url": f"/r/{code}", "rejoin": f"/api/rooms/{code}/rejoin"})
    return {"tables": tables}

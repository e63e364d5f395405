"""The operators' page and its requests. Only a signed-in account marked operator gets
anything: everyone else gets the answer of a path that does not exist (404, no data), so
the page is not even known to be there. A state change carries the session cookie and so
passes the same-site check (foreign_origin) and the Guard's Origin and JSON checks, and
counts against its operator's ACTIONS_PER_MINUTE; each is written to the audit with its
operator and time before its answer."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Request
from fastapi.responses import Response
from sqlalchemy.ext.asyncio import AsyncSession

from server.accounts import store as accounts
from server.accounts.admin import find
from server.accounts.errors import AccountError
from server.accounts.store import AccountInfo
from server.api.account_session import DB, Unreachable, ask, signed_in, unavailable
from server.api.error_pages import error_page
from server.rooms import RoomError
from server.rooms.ratelimit import RateLimit

from . import store
from .actions import close_room
from .feed import Operations
from .models import AccountAction, Announcement
from .snapshot import instance_report

if TYPE_CHECKING:  # a type only: Redis is imported by a server in cluster mode only
    from .cluster import Reports

router = APIRouter(include_in_schema=False)
ACTIONS_PER_MINUTE = 30
AUDIT_SHOWN = 50


def _nothing_here() -> RoomError:
    return RoomError("not_found", "there is nothing at this path", 404)


def operations(request: Request) -> Operations:
    return request.app.state.operations


async def _operator_or_none(request: Request) -> AccountInfo | None:
    if getattr(request.app.state, "db_sessions", None) is None:
        return None
    found = await signed_in(request)
    if found is None:
        return None
    try:
        marked = await ask(request, request.app.state.db_sessions,
                           lambda session: store.is_operator(session, found.id))
    except Unreachable:
        raise unavailable("the database cannot say who you are") from None
    return found if marked else None


async def operator(request: Request) -> AccountInfo:
    """The signed-in operator; anyone else: 404 not_found, as a path that does not exist."""
    found = await _operator_or_none(request)
    if found is None:
        raise _nothing_here()
    return found


Operator = Annotated[AccountInfo, Depends(operator)]


async def acting(request: Request, me: Operator) -> AccountInfo:
    """An operator's state change: at most ACTIONS_PER_MINUTE (rate_limited, 429)."""
    limit: RateLimit = request.app.state.operator_actions
    if not limit.hit(str(me.id)):
        raise RoomError("rate_limited", "too many operator actions; wait a minute", 429)
    return me


Acting = Annotated[AccountInfo, Depends(acting)]


@router.get("/admin")
async def page(request: Request) -> Response:
    if await _operator_or_none(request) is None:
        return error_page(request, "page")
    return request.app.state.templates.TemplateResponse(request, "admin.html", {
        "nav_current": "admin"})


def report_of(app: FastAPI) -> dict[str, Any]:
    ops: Operations = app.state.operations
    return instance_report(app, ops.refusals, ops.migration)


@router.get("/api/admin/state")
async def state(request: Request, me: Operator, db: DB) -> dict[str, Any]:
    """Every instance's report, the audit's last rows, the announcement."""
    reports = getattr(request.app.state, "operator_reports", None)
    own = report_of(request.app)
    instances = [own] if reports is None else await reports.gather(own)
    async with db() as session:
        audit = await store.recent(session, AUDIT_SHOWN)
        muted = sorted(operations(request).muted)
    return {
        "me": {"id": me.id, "name": me.name},
        "instances": instances,
        "announcement": operations(request).announcement,
        "muted": muted,
        "audit": [{"id": d.id, "at": d.at.isoformat(), "by": d.by_name, "action": d.action,
                   "target": d.target, "detail": d.detail} for d in audit],
        "at": time.time(),
    }


async def _record(request: Request, me: AccountInfo, action: str, target: str | None,
                  detail: str | None) -> store.Done:
    async def write(session: AsyncSession) -> store.Done:
        return await store.record(session, me.id, action, target, detail)
    try:
        return await ask(request, request.app.state.db_sessions, write)
    except Unreachable:
        raise unavailable("the action cannot be recorded") from None


@router.post("/api/admin/announcement")
async def announce(body: Announcement, request: Request, me: Acting) -> dict[str, Any]:
    done = await _record(request, me, store.ANNOUNCE, None, body.text)
    await operations(request).apply(done)
    return {"ok": True, "text": body.text}


@router.post("/api/admin/accounts")
async def account_action(body: AccountAction, request: Request, me: Acting) -> dict[str, Any]:
    """Disable or enable an account (disabled: its sessions end, its table sockets get bye
    `disabled`), or mute or unmute its chat at every table. Never an operator's own account
    or another operator's (forbidden)."""
    async def act(session: AsyncSession) -> tuple[AccountInfo, store.Done]:
        account = await find(session, body.who)
        if account.deleted:
            raise AccountError("not_found", f"no account {body.who!r}", 404)
        if await store.is_operator(session, account.id):
            raise AccountError("forbidden", "an operator's account is the host's to change",
                               403)
        if body.action in ("disable", "enable"):
            await accounts.set_disabled(session, account.id, body.action == "disable")
        else:
            await store.set_muted(session, account.id, body.action == "mute")
        return account, await store.record(session, me.id, body.action, f"#{account.id}",
                                           account.name)
    try:
        account, done = await ask(request, request.app.state.db_sessions, act)
    except Unreachable:
        raise unavailable("the account cannot be changed") from None
    await operations(request).apply(done)
    return {"ok": True, "account": {"id": account.id, "name": account.name},
            "action": body.action}


@router.post("/api/rooms/{code}/operator-close")
async def close(code: str, request: Request, me: Acting) -> dict[str, Any]:
    """End an open room (the proxy of a cluster sends this to the room's owner): recorded as
    abandoned, every socket told `closed`."""
    room = await close_room(request.app.state.rooms, code)
    await _record(request, me, store.CLOSE_ROOM, room.display_code, room.status)
    reports: Reports | None = request.app.state.operator_reports
    if reports is not None:  # the owner's report, without the room, for the next look
        await reports.publish_now()
    return {"ok": True, "code": room.display_code}


@router.get("/api/announcement")
async def announcement(request: Request) -> dict[str, str]:
    """The operators' announcement for every lobby and table ("" for none)."""
    ops = getattr(request.app.state, "operations", None)
    return {"text": "" if ops is None else ops.announcement}

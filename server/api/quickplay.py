"""The lobby socket, `/lobby/socket`: the open seeks and tables, live, and Play now
(server.quickplay). Thin: reads who is there (the session cookie, from this site only),
checks a guest's name as a table would, and hands the frames to the Quickplay service."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import Collection

from fastapi import APIRouter, WebSocket
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from starlette.websockets import WebSocketDisconnect

from server.accounts import sessions, store
from server.accounts.reserved import check_reserved
from server.accounts.store import AccountInfo
from server.bots.levels import LEVELS
from server.db.models import utcnow
from server.error_codes import Refusal
from server.jsontext import dumps
from server.quickplay import Ask, Quickplay, Who, frames
from server.rooms import seating
from server.rooms.ratelimit import SlidingWindow

from .account_session import Unreachable, ask, refuse_account_name
from .origin import origin_allowed
from .page_socket import PageSocket

router = APIRouter()
log = logging.getLogger(__name__)


class Lobby(PageSocket):
    """One lobby socket (its writer: server.api.page_socket; the list is its state, the
    answers its other frames). `session` is the session it was signed in with (its row's
    id), None for a guest's."""

    __slots__ = ("session",)

    def __init__(self, ws: WebSocket, timeout: float, session: str | None = None) -> None:
        super().__init__(ws, timeout)
        self.session = session


def signed_out(quickplay: Quickplay, ended: Collection[str]) -> int:
    """The lobby sockets here signed in with a session in `ended` (signed out, ended by a
    password reset, "sign out everywhere", a disabled account) are told and closed; their
    seeks leave with them. How many."""
    closing = [s for s in list(quickplay.sockets)
               if isinstance(s, Lobby) and s.session is not None and s.session in ended]
    for lobby in closing:
        lobby.end(dumps(frames.error("not_signed_in", "this session was signed out")),
                  1008, "not_signed_in")
    return len(closing)


async def sweep_signed_out(quickplay: Quickplay,
                           factory: async_sessionmaker[AsyncSession]) -> int:
    """One pass: the lobby sockets here whose session is over (ended on another instance,
    or expired) are closed."""
    held = {s.session for s in list(quickplay.sockets)
            if isinstance(s, Lobby) and s.session is not None}
    if not held:
        return 0
    async with factory() as session:
        live = await store.session_ids(session, held)
    return signed_out(quickplay, held - live)


async def _account(ws: WebSocket) -> AccountInfo | None:
    """The signed-in account, if the socket comes from this site (a cookie another site's
    page sends along is not used: that page is treated as a guest's)."""
    factory = getattr(ws.app.state, "db_sessions", None)
    secret = ws.cookies.get(sessions.COOKIE)
    settings = ws.app.state.settings
    if factory is None or not secret or "origin" not in ws.headers:
        return None
    if not origin_allowed(ws.headers, [o for o in settings.ALLOWED_ORIGINS if o != "*"]):
        return None
    try:
        return await ask(ws, factory, lambda s: sessions.account_of(s, secret, utcnow()))
    except Unreachable:
        return None


@router.websocket("/lobby/socket")
async def lobby_socket(ws: WebSocket) -> None:
    settings = ws.app.state.settings
    quickplay: Quickplay = ws.app.state.quickplay
    if not origin_allowed(ws.headers, settings.ALLOWED_ORIGINS):
        await ws.close(1008, "origin not allowed")
        return
    account = await _account(ws)
    await ws.accept()
    secret = ws.cookies.get(sessions.COOKIE)
    lobby = Lobby(ws, settings.WS_SEND_TIMEOUT,
                  None if account is None or not secret else sessions.session_id(secret))
    with quickplay.attached(lobby) as admitted:
        if not admitted:
            await ws.send_text(dumps(frames.error("too_many_sockets", "too many sockets")))
            await ws.close(1013, "too_many_sockets")
            return
        try:
            await lobby.serve(_read(ws, lobby, quickplay, account))
        finally:
            with contextlib.suppress(Exception):
                await quickplay.leave(lobby)


async def _read(ws: WebSocket, lobby: Lobby, quickplay: Quickplay,
                account: AccountInfo | None) -> None:
    settings = ws.app.state.settings
    flood = SlidingWindow(settings.WS_FLOOD_MESSAGES, settings.WS_FLOOD_WINDOW,
                          asyncio.get_running_loop().time)
    guest = f"g:{uuid.uuid4().hex}"
    while True:
        try:
            text = await ws.receive_text()
        except (WebSocketDisconnect, RuntimeError):
            return
        if len(text) > settings.WS_MAX_FRAME or not flood.hit():
            lobby.end(dumps(frames.error("flood", "too many or too large frames")),
                      1008, "flood")
            return
        try:
            frame = frames.parse(text)
            if isinstance(frame, frames.Cancel):
                await quickplay.leave(lobby)
                lobby.send(dumps(frames.cancelled()))
                continue
            if account is not None and await _account(ws) is None:  # signed out since
                raise Refusal("not_signed_in", "this session was signed out", 401)
            who = await _who(ws, account, guest, frame)
            ask_ = Ask(frame.size, frame.mode, frame.rated, frame.bots_after, frame.join)
            seek_id = await quickplay.seek(lobby, who, ask_)
            lobby.send(dumps(frames.queued(seek_id)))
        except frames.BadFrame as exc:
            lobby.send(dumps(frames.error("malformed", str(exc))))
        except Refusal as exc:
            lobby.send(dumps(frames.error(exc.code, exc.message)))


async def _who(ws: WebSocket, account: AccountInfo | None, guest: str,
               frame: frames.Play) -> Who:
    """The player: an account; a guest only for a casual game, under a name a table would
    take (not an account's, not a bot's or the site's)."""
    if account is not None:
        return Who(f"a:{account.id}", account.name, account.id)
    if frame.rated:
        raise Refusal("not_signed_in", "a rated game needs an account: sign in", 401)
    name = seating.clean_name(frame.name or "")
    check_reserved(name, LEVELS)
    await refuse_account_name(ws, name)
    return Who(guest, name)

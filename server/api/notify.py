"""E-mail for turn-based rooms (server/notify/) and the lobby's "my turn-based tables".

    POST /api/rooms/{code}/email          a seat's player gives an address (a code is sent)
    POST /api/rooms/{code}/email/confirm  ... and confirms it with that code
    POST /api/rooms/{code}/email/status   what this seat's address is (masked) and its state
    POST /api/rooms/{code}/email/digest   ... asks for a daily digest instead (or not)
    POST /api/rooms/{code}/email/remove   ... takes it back
    GET  /unsubscribe/{token}             the link of every message: a page that asks
    POST /unsubscribe/{token}             ... one click (RFC 8058): unsubscribed
    POST /api/turns                       for (room, seat token) pairs: whose turn, time left
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from server.notify import AddressBook
from server.rooms import Room, RoomError, RoomManager
from server.rooms.errors import forbidden

from .error_pages import wants_html
from .errors import EVERY_ROUTE, STATE_CHANGING, answers
from .models import AddAddress, ConfirmAddress, DigestChoice, SeatOnly, TurnsQuery

router = APIRouter(responses=EVERY_ROUTE)
UNSUBSCRIBE = "/unsubscribe/"  # the one-click links: a POST with a form body from any site


def mail_off() -> RoomError:
    """The refusal of every e-mail route on a server without mail (its service is None)."""
    return RoomError("mail_off", "this server sends no e-mail (no SMTP_HOST or database)",
                     409)


def _book(request: Request) -> AddressBook:
    book: AddressBook | None = getattr(request.app.state, "addresses", None)
    if book is None:
        raise mail_off()
    return book


def _seat(request: Request, code: str, token: str) -> tuple[Room, int]:
    manager: RoomManager = request.app.state.rooms
    room = manager.get(code)
    if not room.options.turn_based:
        raise RoomError("mail_off", "e-mail is for turn-based rooms", 409)
    seat = room.seat_of(token)
    if seat is None:
        raise forbidden("only this seat's player can manage its e-mail address")
    return room, seat


@router.post("/api/rooms/{code}/email", responses={**STATE_CHANGING, **answers(429)})
async def add_address(code: str, body: AddAddress, request: Request) -> dict[str, Any]:
    """Give this seat an address: a 6-digit code is sent to it (the same address again:
    the code is sent again, at most once a minute; 5 codes a day to a seat, and to a
    mailbox however spelled from every table and client; 20 codes an hour from one client
    address, `code_flood`)."""
    book = _book(request)
    room, seat = _seat(request, code, body.token)
    client = request.client.host if request.client else "unknown"
    return await book.add(room.code, seat, body.address, body.lang, body.token, client)


@router.post("/api/rooms/{code}/email/confirm", responses=STATE_CHANGING)
async def confirm_address(code: str, body: ConfirmAddress, request: Request) -> dict[str, Any]:
    book = _book(request)
    room, seat = _seat(request, code, body.token)
    status = await book.confirm(room.code, seat, body.code)
    request.app.state.mail.forget_turns(room.code)
    request.app.state.mail.wake()
    return status


@router.post("/api/rooms/{code}/email/status", responses=STATE_CHANGING)
async def address_status(code: str, body: SeatOnly, request: Request) -> dict[str, Any]:
    book = _book(request)
    room, seat = _seat(request, code, body.token)
    return await book.status(room.code, seat)


@router.post("/api/rooms/{code}/email/digest", responses=STATE_CHANGING)
async def address_digest(code: str, body: DigestChoice, request: Request) -> dict[str, Any]:
    """A daily digest of this seat's turns (with the address's other digest seats) instead
    of one message per turn."""
    book = _book(request)
    room, seat = _seat(request, code, body.token)
    return await book.set_digest(room.code, seat, body.digest)


@router.post("/api/rooms/{code}/email/remove", responses=STATE_CHANGING)
async def remove_address(code: str, body: SeatOnly, request: Request) -> dict[str, bool]:
    book = _book(request)
    room, seat = _seat(request, code, body.token)
    await book.remove(room.code, seat)
    return {"ok": True}


@router.get(UNSUBSCRIBE + "{token}", responses=answers(403, 409))
async def unsubscribe_page(token: str, request: Request) -> Any:
    """The link of every message, opened: nothing changes (link scanners and previews open
    links). A browser gets a page whose button sends the one-click POST (translated), any
    other client JSON; a link made for another address is refused (`403
    unsubscribe_invalid`)."""
    try:
        await _book(request).check_unsubscribe(token)
    except RoomError as e:
        return _refused(request, e)
    if wants_html(request):
        return _page(request, "ask")
    return {"ok": True, "unsubscribed": False,
            "message": "POST to this link (List-Unsubscribe=One-Click) to unsubscribe"}


@router.post(UNSUBSCRIBE + "{token}", responses=answers(403, 409))
async def unsubscribe(token: str, request: Request) -> Any:
    """One click (RFC 8058: a mail client's POST with the body List-Unsubscribe=One-Click,
    or the page's button): no more e-mail to the link's address, from any table. The
    link is the credential, so the body is not read and any site may send it (the site's
    boundary lets form bodies through to this path only: api/security.py)."""
    try:
        await _book(request).unsubscribe(token)
    except RoomError as e:
        return _refused(request, e)
    if wants_html(request):
        return _page(request, "done")
    return {"ok": True, "unsubscribed": True,
            "message": "this address gets no more e-mail from this server"}


def _page(request: Request, state: str, code: str = "", status: int = 200) -> Any:
    return request.app.state.templates.TemplateResponse(
        request, "unsubscribe.html", {"state": state, "code": code}, status_code=status)


def _refused(request: Request, e: RoomError) -> Any:
    if not wants_html(request) or e.code != "unsubscribe_invalid":
        raise e
    return _page(request, "bad", e.code, e.status)


@router.post("/api/turns", responses=answers(403, 415))
async def my_turns(body: TurnsQuery, request: Request) -> dict[str, Any]:
    """For each (room, seat token) this browser holds: the room's state, whether it is that
    seat's turn and the time it has left. Only what the seat's own view shows."""
    manager: RoomManager = request.app.state.rooms
    # In cluster mode this instance holds only its own rooms: a room it does not hold says
    # "elsewhere", and the client asks for it alone (POST /api/rooms/{code}/turn), which
    # the proxy and OwnerRouting take to the instance that owns it.
    cluster = bool(request.app.state.settings.cluster)
    seats = [_turn_of(manager, ref.code, ref.token, cluster) for ref in body.seats]
    return {"seats": seats}


@router.post("/api/rooms/{code}/turn", responses=STATE_CHANGING)
async def my_turn(code: str, body: SeatOnly, request: Request) -> dict[str, Any]:
    """As one entry of POST /api/turns, for one room (routed to its owner in a cluster)."""
    manager: RoomManager = request.app.state.rooms
    return _turn_of(manager, code, body.token, False)


def left_ms(room: Room) -> int | None:
    """What the seat to act has left (turn time and bank, ms), if the room's clock runs
    for it."""
    clock = room.turn_clock
    if room.game is None or clock is None or clock.seat != room.game.current:
        return None
    turn, bank = clock.left(room.clock())
    return turn + bank


def _turn_of(manager: RoomManager, code: str, token: str, cluster: bool) -> dict[str, Any]:
    room = manager.find(code)
    if room is None:
        return {"code": code, "status": "elsewhere" if cluster else "gone"}
    seat = room.seat_of(token)
    if seat is None:
        return {"code": room.display_code, "status": "gone"}
    answer: dict[str, Any] = {
        "code": room.display_code, "status": room.status, "mode": room.options.mode,
        "seat": seat, "names": [s.name for s in room.seats], "your_turn": False,
        "to_act": None, "left_ms": None,
    }
    to_act = room.to_act()
    if to_act is not None:
        answer["to_act"] = to_act
        answer["your_turn"] = to_act == seat
        answer["left_ms"] = left_ms(room)
    return answer

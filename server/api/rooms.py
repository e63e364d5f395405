"""The HTTP API under /api: create, list, inspect, join, leave, start, kick, host, bot."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from server.accounts.reserved import check_reserved
from server.bots.levels import LEVELS
from server.rooms import RoomManager, RoomOptions, late, seating
from server.rooms.outgoing import RoomInfo
from server.rules import RULES_VERSION

from .account_models import Empty, Rejoined
from .account_session import Me, refuse_account_name, signed_in
from .errors import EVERY_ROUTE, STATE_CHANGING, answers
from .models import (
    Away,
    CreatedRoom,
    CreateRoom,
    HostOnly,
    Joined,
    JoinRoom,
    LateChoice,
    LeaveRoom,
    SeatAction,
    SeatBot,
    SeatOnly,
    SetClock,
)

router = APIRouter(responses=EVERY_ROUTE)
OK = {"ok": True}


def rooms(request: Request) -> RoomManager:
    return request.app.state.rooms


@router.get("/healthz")
async def healthz(request: Request) -> dict[str, Any]:
    """Degraded (still 200: play goes on) while journal writes go to the fallback file, or
    (cluster mode) while Redis is unreachable. `rooms`: the rooms this instance owns."""
    manager = rooms(request)
    database = request.app.state.database
    if database is None:
        status, db = "ok", "none"
    elif database.degraded:
        status, db = "degraded", "unreachable"
    else:
        status, db = "ok", "ok"
    health = {
        "status": status,
        "instance": request.app.state.settings.instance,
        "mode": "cluster" if request.app.state.settings.cluster else "single",
        "database": db,
        "rooms": len(manager.rooms),
        "connections": manager.connection_count(),
        "rules_version": RULES_VERSION,
        **manager.health(),
    }
    mail = request.app.state.mail
    if mail is not None:  # the e-mail outbox: what waits, and whether the SMTP server takes it
        health["mail"] = {"backlog": mail.backlog, "smtp": "failing" if mail.failing else "ok"}
    if "unreachable" in health.values():
        health["status"] = "degraded"
    return health


@router.post("/api/rooms", status_code=201, response_model=CreatedRoom,
             responses={**STATE_CHANGING, **answers(429)})
async def create_room(
    body: CreateRoom,  # a model derived from RoomOptions
    request: Request,
) -> JSONResponse:
    client = request.client.host if request.client else "unknown"
    options = RoomOptions.from_dict(body.model_dump())
    room, host_token = await rooms(request).create(options, client)
    code = room.display_code
    return JSONResponse(
        {"code": code, "url": f"/r/{code}", "host_token": host_token}, status_code=201
    )


@router.get("/api/rooms")
async def list_rooms(request: Request) -> dict[str, list[dict[str, Any]]]:
    return await rooms(request).public_listing()


@router.get("/api/rooms/{code}", response_model=RoomInfo, response_model_exclude_unset=True,
            responses=answers(404))
async def room_info(code: str, request: Request) -> dict[str, Any]:
    return rooms(request).get(code).info()


@router.get("/api/rooms/{code}/events", responses=answers(404))
async def recent_events(code: str, request: Request, upto: int | None = None) -> dict[str, Any]:
    """What happened: the whole game's events (the ones patch frames carried, the room's
    older seat and presence events aside), so a viewer who reloads or arrives mid-game can
    read the log back to the first turn."""
    room = rooms(request).get(code)
    return {"v": room.v, "events": room.game_log(upto)}


@router.post("/api/rooms/{code}/join", response_model=Joined, responses=STATE_CHANGING)
async def join_room(code: str, body: JoinRoom, request: Request) -> dict[str, Any]:
    """A signed-in player sits under their account's name (the typed one is not used) and
    is shown verified; a guest may not take a name an account holds (name_taken), nor one
    that passes for a bot or the site (name_reserved: server/accounts/reserved.py)."""
    room = rooms(request).get(code)
    account = await signed_in(request)
    if account is None:
        check_reserved(seating.clean_name(body.name), LEVELS)
        await refuse_account_name(request, body.name)
        seat, token = await seating.join(room, body.name, body.seat)
    else:
        seat, token = await seating.join(room, account.name, body.seat, account.id)
    return {"seat": seat, "seat_token": token}


@router.post("/api/rooms/{code}/rejoin", response_model=Rejoined,
             responses={**STATE_CHANGING, **answers(401, 503)})
async def rejoin_room(code: str, body: Empty, request: Request, me: Me) -> dict[str, Any]:
    """A signed-in player's seat at this table, with a new seat token (from any device);
    the seat's old token stops working."""
    room = rooms(request).get(code)
    seat, token = await seating.rejoin(room, me.id)
    return {"seat": seat, "seat_token": token, "url": f"/r/{room.display_code}"}


@router.post("/api/rooms/{code}/leave", responses=STATE_CHANGING)
async def leave_room(code: str, body: LeaveRoom, request: Request) -> dict[str, bool]:
    await seating.leave(rooms(request).get(code), body.seat_token)
    return OK


@router.post("/api/rooms/{code}/start", responses=STATE_CHANGING)
async def start_room(code: str, body: HostOnly, request: Request) -> dict[str, bool]:
    await seating.start(rooms(request).get(code), body.token)
    return OK


@router.post("/api/rooms/{code}/kick", responses=STATE_CHANGING)
async def kick_seat(code: str, body: SeatAction, request: Request) -> dict[str, bool]:
    await seating.kick(rooms(request).get(code), body.token, body.seat)
    return OK


@router.post("/api/rooms/{code}/host", responses=STATE_CHANGING)
async def hand_host(code: str, body: SeatAction, request: Request) -> dict[str, bool]:
    await seating.hand_host(rooms(request).get(code), body.token, body.seat)
    return OK


@router.post("/api/rooms/{code}/bot", responses=STATE_CHANGING)
async def seat_bot(code: str, body: SeatBot, request: Request) -> dict[str, bool]:
    await seating.add_bot(rooms(request).get(code), body.token, body.seat, body.level)
    return OK


@router.post("/api/rooms/{code}/clock", responses=STATE_CHANGING)
async def set_clock(code: str, body: SetClock, request: Request) -> dict[str, bool]:
    """The host changes the turn clock while the room is waiting."""
    clock = None if body.clock is None else body.clock.model_dump()
    await seating.set_clock(rooms(request).get(code), body.token, clock)
    return OK


@router.post("/api/rooms/{code}/late", responses=STATE_CHANGING)
async def late_choice(code: str, body: LateChoice, request: Request) -> dict[str, bool]:
    """Turn-based: the player to act ran out of time and bank; another player of the table
    chooses a stand-in bot for that turn, or to end the game (recorded as abandoned)."""
    manager = rooms(request)
    room = manager.get(code)
    if body.choice == "abandon":
        await manager.abandon_late(room, body.token)
    else:
        await late.stand_in(room, body.token, request.app.state.settings.TAKEOVER_LEVEL)
    return OK


@router.post("/api/rooms/{code}/away", responses=STATE_CHANGING)
async def away(code: str, body: Away, request: Request) -> dict[str, bool]:
    """Turn-based: the player is away for `hours` (once per game, at most 7 days); their
    clock does not run meanwhile."""
    await late.go_away(rooms(request).get(code), body.token, body.hours)
    return OK


@router.post("/api/rooms/{code}/rematch", responses=STATE_CHANGING)
async def rematch(code: str, body: SeatOnly, request: Request) -> dict[str, Any]:
    """A new room for the same table, everyone seated as before: each caller gets their
    own new seat token; only the first caller gets the host token."""
    client = request.client.host if request.client else "unknown"
    manager = rooms(request)
    new, host_token, seat_token = await manager.rematch(manager.get(code), body.token, client)
    answer: dict[str, Any] = {"code": new.display_code, "url": f"/r/{new.display_code}"}
    if seat_token is not None:
        answer["seat_token"] = seat_token
    if host_token is not None:
        answer["host_token"] = host_token
    return answer

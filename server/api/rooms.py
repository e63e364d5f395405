"""The HTTP API under /api: create, list, inspect, join, leave, start, kick, host, bot."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from server.rooms import RoomManager, RoomOptions, seating
from server.rooms.turnclock import ClockOption
from server.rules import RULES_VERSION

from .models import (
    CreateRoom,
    HostOnly,
    JoinRoom,
    LeaveRoom,
    SeatAction,
    SeatBot,
    SeatOnly,
    SetClock,
)

router = APIRouter()
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
    if "unreachable" in health.values():
        health["status"] = "degraded"
    return health


@router.post("/api/rooms", status_code=201)
async def create_room(body: CreateRoom, request: Request) -> JSONResponse:
    client = request.client.host if request.client else "unknown"
    clock = None if body.clock is None else ClockOption(body.clock.turn, body.clock.bank)
    options = RoomOptions(body.players, body.starter_orders, body.starting_player, body.public,
                          clock)
    room, host_token = await rooms(request).create(options, client)
    code = room.display_code
    return JSONResponse(
        {"code": code, "url": f"/r/{code}", "host_token": host_token}, status_code=201
    )


@router.get("/api/rooms")
async def list_rooms(request: Request) -> dict[str, list[dict[str, Any]]]:
    return await rooms(request).public_listing()


@router.get("/api/rooms/{code}")
async def room_info(code: str, request: Request) -> dict[str, Any]:
    return rooms(request).get(code).info()


@router.post("/api/rooms/{code}/join")
async def join_room(code: str, body: JoinRoom, request: Request) -> dict[str, Any]:
    seat, token = await seating.join(rooms(request).get(code), body.name, body.seat)
    return {"seat": seat, "seat_token": token}


@router.post("/api/rooms/{code}/leave")
async def leave_room(code: str, body: LeaveRoom, request: Request) -> dict[str, bool]:
    await seating.leave(rooms(request).get(code), body.seat_token)
    return OK


@router.post("/api/rooms/{code}/start")
async def start_room(code: str, body: HostOnly, request: Request) -> dict[str, bool]:
    await seating.start(rooms(request).get(code), body.token)
    return OK


@router.post("/api/rooms/{code}/kick")
async def kick_seat(code: str, body: SeatAction, request: Request) -> dict[str, bool]:
    await seating.kick(rooms(request).get(code), body.token, body.seat)
    return OK


@router.post("/api/rooms/{code}/host")
async def hand_host(code: str, body: SeatAction, request: Request) -> dict[str, bool]:
    await seating.hand_host(rooms(request).get(code), body.token, body.seat)
    return OK


@router.post("/api/rooms/{code}/bot")
async def seat_bot(code: str, body: SeatBot, request: Request) -> dict[str, bool]:
    await seating.add_bot(rooms(request).get(code), body.token, body.seat, body.level)
    return OK


@router.post("/api/rooms/{code}/clock")
async def set_clock(code: str, body: SetClock, request: Request) -> dict[str, bool]:
    """The host changes the turn clock while the room is waiting."""
    clock = None if body.clock is None else body.clock.model_dump()
    await seating.set_clock(rooms(request).get(code), body.token, clock)
    return OK


@router.post("/api/rooms/{code}/rematch")
async def rematch(code: str, body: SeatOnly, request: Request) -> dict[str, Any]:
    """A new room for the same table; only the first caller gets its host token."""
    client = request.client.host if request.client else "unknown"
    manager = rooms(request)
    new, host_token = await manager.rematch(manager.get(code), body.token, client)
    answer: dict[str, Any] = {"code": new.display_code, "url": f"/r/{new.display_code}"}
    if host_token is not None:
        answer["host_token"] = host_token
    return answer

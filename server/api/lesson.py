"""The guided first game ("Learn to play"): one click starts it, and its pointers.

`POST /api/lessons` makes a real room with the `lesson` option (its fixed teaching deal,
R-SETUP-L; unrated, not public), seats the caller in seat 0 and a greedy bot in seat 1,
and starts it: the answer carries the seat token, as a join does. Rooms are made under
the same per-address limit as any other (ROOM_CREATE_RATE).

`GET /api/rooms/{code}/lesson` says what the lesson points at now: the action the seat to
act is shown (server/bots/lesson.py, from that seat's own view) and the concept it
introduces. Only a lesson room answers (`not_lesson` otherwise), so no other room's
position is ever worked on here; the answer is kept per room and game version, so asking
again costs nothing until the game moves.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field, StringConstraints

from server.accounts.reserved import check_reserved
from server.bots import lesson
from server.bots.levels import LEVELS
from server.rooms import PLAYING, RoomError, RoomManager, RoomOptions, seating
from server.rooms.outgoing import ActionField

from .account_session import refuse_account_name, signed_in
from .errors import EVERY_ROUTE, STATE_CHANGING, answers
from .models import Body

router = APIRouter(responses=EVERY_ROUTE)

# The options of every lesson room: the teaching deal, the learner starts, unrated, unlisted.
LESSON_OPTIONS = RoomOptions(players=2, starting_player=lesson.LEARNER, lesson=True,
                             rated=False, public=False)
GUIDES_KEPT = 512  # rooms whose last pointer is kept (one entry each)


class StartLesson(Body):
    name: Annotated[str, StringConstraints(max_length=200)] = Field(
        description="the learner's name, 1..24 characters after trimming, else 422 "
                    "name_invalid (a signed-in player's account name is used instead)",
        json_schema_extra={"pattern": r"\S"})


class StartedLesson(BaseModel):
    code: str
    url: str
    seat: int
    seat_token: str


class Pointer(BaseModel):
    """What the lesson shows now. `action` (one of the seat's legal actions) and `note`
    (the concept, said by the sentence `learn.<note>`) are null when the seat to act has
    nothing to decide (the game is over, or a bot is playing)."""

    version: int = Field(description="the room's version this answers")
    seat: int | None = Field(description="the seat the pointer is for")
    action: ActionField | None
    note: str | None


def _manager(request: Request) -> RoomManager:
    return request.app.state.rooms


@router.post("/api/lessons", status_code=201, response_model=StartedLesson,
             responses={**STATE_CHANGING, **answers(429)})
async def start_lesson(body: StartLesson, request: Request) -> JSONResponse:
    """A new lesson, already started: the caller in seat 0, a greedy bot in seat 1."""
    client = request.client.host if request.client else "unknown"
    account = await signed_in(request)
    if account is None:
        check_reserved(seating.clean_name(body.name), LEVELS)
        await refuse_account_name(request, body.name)
    room, host_token = await _manager(request).create(
        LESSON_OPTIONS, client, bots=(None, lesson.BOT_LEVEL))
    if account is None:
        seat, token = await seating.join(room, body.name, lesson.LEARNER)
    else:
        seat, token = await seating.join(room, account.name, lesson.LEARNER, account.id)
    await seating.start(room, host_token)
    code = room.display_code
    return JSONResponse({"code": code, "url": f"/r/{code}", "seat": seat, "seat_token": token},
                        status_code=201)


@router.get("/api/rooms/{code}/lesson", response_model=Pointer, responses=answers(404, 409))
async def lesson_pointer(code: str, request: Request) -> dict[str, Any]:
    """The lesson's pointer for the seat to act (a lesson room only: `not_lesson`)."""
    room = _manager(request).get(code)
    if not room.options.lesson:
        raise RoomError("not_lesson", "this room is not a lesson", 409)
    guides: OrderedDict[str, dict[str, Any]] = _guides(request)
    kept = guides.get(room.code)
    if kept is not None and kept["version"] == room.game_v:
        return kept
    answer: dict[str, Any] = {"version": room.game_v, "seat": None, "action": None, "note": None}
    game = room.game
    if room.status == PLAYING and game is not None:
        seat = game.current
        answer["seat"] = seat
        if not room.seats[seat].bot and room.seats[seat].played_by is None:
            seen = room.view(seat)["game"]
            found = None if seen is None else lesson.suggest(seen)
            if found is not None:
                answer.update(found)
    guides[room.code] = answer
    guides.move_to_end(room.code)
    while len(guides) > GUIDES_KEPT:
        guides.popitem(last=False)
    return answer


def _guides(request: Request) -> OrderedDict[str, dict[str, Any]]:
    return request.app.state.lesson_guides  # made by server/wiring/routes.py

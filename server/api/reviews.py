"""The expert's review of a finished game: GET its state (and the review once made), POST
to ask for it (server/history/reviews.py makes it in the bot workers, once).

Anyone may read a stored review. Asking: anyone for a public game or an imported one, else
a player of the game (signed in to the account they played with, or holding their seat's
token, sent as {"token": ...}: the browser keeps it where the table left it).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from server.db.store import hash_token
from server.history.reviews import Reviews
from server.rooms import RoomError

from .account_session import signed_in
from .errors import EVERY_ROUTE, STATE_CHANGING, answers
from .games import DB, GameId, stored_game

router = APIRouter(responses={**EVERY_ROUTE, **answers(503)})


class AskReview(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str | None = Field(None, max_length=128, description="the asker's seat token")


def _reviews(request: Request) -> Reviews:
    found = getattr(request.app.state, "reviews", None)
    if found is None:
        raise RoomError("unavailable", "this server keeps no game history (no database)", 503)
    assert isinstance(found, Reviews)
    return found


@router.get("/api/games/{game_id:whole}/review", responses=answers(404))
async def game_review(game_id: GameId, request: Request, db: DB) -> dict[str, Any]:
    """{"state": "none" | "queued" | "running" | "done" | "failed"}, and the review when
    done: per turn of every seat the values of the plan played and the expert's best (in
    expected points), the loss, its grade, and per player a summary."""
    await stored_game(db, game_id)
    return await _reviews(request).status(game_id)


@router.post("/api/games/{game_id:whole}/review", responses={
    **STATE_CHANGING, **answers(403, 404, 409, 429)})
async def ask_review(game_id: GameId, body: AskReview, request: Request, db: DB
                     ) -> JSONResponse:
    """Ask for the game's review: 202 while it is queued or being made, 200 once done."""
    game = await stored_game(db, game_id)
    reviews = _reviews(request)
    account = await signed_in(request)
    token = body.token
    await reviews.may_ask(game_id, game.options, game.summary.room_code,
                          None if account is None else account.id,
                          None if not token else hash_token(token))
    address = request.client.host if request.client else "unknown"
    state = await reviews.ask(game_id, address)
    return JSONResponse(state, status_code=200 if state["state"] in ("done", "failed") else 202)

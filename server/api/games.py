"""Finished games: the history API under /api/games and the pages /games and /games/{id}.

Needs `app.state.db_sessions` (an async_sessionmaker); without it every route answers 503
"unavailable". Replays are rebuilt with the engine here, never in the browser.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from starlette.convertors import Convertor, register_url_convertor

from server.db import store
from server.db.models import NAME
from server.db.records import GameDetail
from server.history import (
    Document,
    export_document,
    finished_game,
    read_document,
    verify,
)
from server.history.present import detail_json, page_json, replay_json, summary_json
from server.rooms import RoomError

from .error_pages import error_page
from .errors import EVERY_ROUTE, answers, page_not_found
from .pages import script_json

router = APIRouter(responses={**EVERY_ROUTE, **answers(503)})

Sessions = async_sessionmaker[AsyncSession]
IMPORT_PATH = "/api/games/import"  # its body cap is IMPORT_MAX_BODY (server/api/security.py)


class WholeNumber(Convertor[str]):
    """`{game_id:whole}`: a path segment that is a number, so that /api/games/import is
    not also a game (GET would then be among its methods, `Allow`); the number's bounds
    stay GameId's to check (a malformed id is 422, not an unknown path)."""

    regex = "-?[0-9]+"

    def convert(self, value: str) -> str:
        return value

    def to_string(self, value: str) -> str:
        return str(value)


register_url_convertor("whole", WholeNumber())
PER_PAGE = 20


def db_sessions(request: Request) -> Sessions:
    factory = getattr(request.app.state, "db_sessions", None)
    if factory is None:
        raise RoomError("unavailable", "this server keeps no game history (no database)", 503)
    return factory


DB = Annotated[Sessions, Depends(db_sessions)]
Page = Annotated[int, Query(ge=1, le=1_000_000)]
PerPage = Annotated[int, Query(ge=1, le=store.MAX_PER_PAGE)]
Player = Annotated[str | None, Query(max_length=NAME)]
AccountId = Annotated[int | None, Query(ge=1, le=2**63 - 1,
                                        description="an account's id: the games it played")]
Lessons = Annotated[bool, Query(description="list lessons (the guided first game) too")]
GameId = Annotated[int, Path(ge=1, le=2**63 - 1, description="a stored game's id")]


async def stored_game(db: Sessions, game_id: int) -> GameDetail:
    async with db() as session:
        game = await store.get_game(session, game_id)
    if game is None:
        raise RoomError("not_found", f"there is no finished game {game_id}", 404)
    return game


# --- the API -------------------------------------------------------------------------------


@router.get("/api/games")
async def list_games(
    db: DB, page: Page = 1, per_page: PerPage = PER_PAGE, player: Player = None,
    account: AccountId = None, lessons: Lessons = False,
) -> dict[str, Any]:
    """Finished games, newest first; `player` keeps those with a player of that name (the
    name they were played under), `account` those that account played (whatever its name
    was or is: a profile's "All their games"); lessons (the guided first game) only with
    `lessons=true`."""
    async with db() as session:
        found = await store.list_games(session, page, per_page, player, account, lessons)
    return page_json(found)


@router.get("/api/games/{game_id:whole}", responses=answers(404))
async def game_detail(game_id: GameId, db: DB) -> dict[str, Any]:
    """One finished game with its seed, options, result and every action in order."""
    return detail_json(await stored_game(db, game_id))


@router.get("/api/games/{game_id:whole}/replay", responses=answers(404))
async def game_replay(game_id: GameId, db: DB) -> dict[str, Any]:
    """The dealt spectator view and, per action, its events and the patch it makes."""
    game = await stored_game(db, game_id)
    return await asyncio.to_thread(replay_json, game)


@router.get("/api/games/{game_id:whole}/export", responses=answers(404))
async def export_game(game_id: GameId, db: DB) -> JSONResponse:
    """A self-contained JSON document; POST it to /api/games/import elsewhere."""
    game = await stored_game(db, game_id)
    name = f"coffee-rush-{game.summary.room_code}.json"
    return JSONResponse(
        export_document(game), headers={"Content-Disposition": f'attachment; filename="{name}"'}
    )


def _document_body() -> dict[str, Any]:
    """OpenAPI `requestBody` of the import: an export document. Its nested models stay in
    its own `$defs`, referred to by their place in the OpenAPI document (a `#/$defs` ref
    would point at the document's root)."""
    here = "#/paths/~1api~1games~1import/post/requestBody/content/application~1json/schema"
    schema = Document.model_json_schema(ref_template=here + "/$defs/{model}")
    return {"requestBody": {"required": True, "content": {"application/json": {
        "schema": schema}}}}


@router.post(IMPORT_PATH, status_code=201, responses=answers(403, 409, 415),
             openapi_extra=_document_body())
async def import_game(request: Request, db: DB) -> JSONResponse:
    """Replay an exported document; store it if it reproduces its own result."""
    body = await request.body()  # already capped at IMPORT_MAX_BODY by the Guard
    doc = read_document(body)  # a refusal (ImportRefused) is answered as every one is
    game = await asyncio.to_thread(verify, doc)
    record = finished_game(doc, game, datetime.now(UTC))
    async with db.begin() as session:
        game_id = await store.save_finished_game(session, record)
    return JSONResponse({"id": game_id, "url": f"/games/{game_id}"}, status_code=201)


# --- the pages -----------------------------------------------------------------------------


@router.get("/games", response_class=HTMLResponse)
async def games_page(request: Request, db: DB, page: Page = 1, player: Player = None,
                     account: AccountId = None, lessons: Lessons = False) -> Response:
    async with db() as session:
        found = await store.list_games(session, page, PER_PAGE, player, account, lessons)
        named = None if account is None else await store.account_name(session, account)
    listing = page_json(found)
    context = {"listing": listing, "player": (player or "").strip(), "account": account,
               "account_name": named or ""}
    return request.app.state.templates.TemplateResponse(request, "games.html", context)


@router.get("/games/{game_id}", response_class=HTMLResponse, responses=page_not_found("game"))
async def replay_page(game_id: GameId, request: Request, db: DB) -> Response:
    async with db() as session:
        game = await store.get_game(session, game_id)
    if game is None:
        return error_page(request, "game")
    replay = await asyncio.to_thread(replay_json, game)
    first = {"room": replay["room"], "you": replay["you"], "game": replay["initial"]}
    context = {
        "code": replay["room"]["code"],
        "summary": summary_json(game.summary),
        "initial_view_json": script_json(first),
        "replay_json": script_json(replay),
    }
    return request.app.state.templates.TemplateResponse(request, "replay.html", context)

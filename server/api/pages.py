"""HTML pages: the lobby at / and a table at /r/{code}; the table embeds its first view.
A room that is gone leads to its game's replay, if the game was finished and stored."""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from markupsafe import Markup

from server.db import store
from server.db.models import ROOM_CODE
from server.rooms import RoomManager
from server.rooms.options import option_form

from .error_pages import error_page
from .errors import EVERY_ROUTE, page_not_found
from .next_path import same_site_path

router = APIRouter(responses=EVERY_ROUTE)


def script_json(value: Any) -> Markup:
    """JSON safe inside <script type="application/json">: no '<', '>' or '&' left."""
    text = json.dumps(value, separators=(",", ":"))
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return Markup(text)


@router.get("/", response_class=HTMLResponse)
async def lobby(request: Request) -> Response:
    manager: RoomManager = request.app.state.rooms
    return request.app.state.templates.TemplateResponse(
        request, "lobby.html",
        {"rooms": await manager.public_listing(), "options": option_form()},
    )


@router.get("/r/{code}", response_class=HTMLResponse, responses=page_not_found("room"))
async def table(code: str, request: Request) -> Response:
    manager: RoomManager = request.app.state.rooms
    room = manager.find(code)
    if room is None:
        game_id = await _stored_game(request, code)
        if game_id is None:
            return error_page(request, "room")
        return RedirectResponse(f"/games/{game_id}", status_code=303)
    context = {
        "code": room.display_code,
        "room": room.info(),
        "initial_view_json": script_json(room.view(None)),
    }
    return request.app.state.templates.TemplateResponse(request, "table.html", context)


@router.get("/r/{code}/replay", response_class=HTMLResponse, responses=page_not_found("game"))
async def replay_of_room(code: str, request: Request) -> Response:
    """The replay of the game finished in room `code` (the final screen links here)."""
    game_id = await _stored_game(request, code)
    if game_id is None:
        return error_page(request, "game")
    return RedirectResponse(f"/games/{game_id}", status_code=303)


async def _stored_game(request: Request, code: str) -> int | None:
    """The id of the stored game of room `code`; None if there is none (or no database)."""
    sessions = getattr(request.app.state, "db_sessions", None)
    # Not `normalize`: an imported game may carry a code from another server's alphabet.
    room_code = code.replace("-", "").upper()
    if sessions is None or not (room_code.isascii() and room_code.isalnum()
                                and len(room_code) <= ROOM_CODE):
        return None
    async with sessions() as session:
        game_id: int | None = await store.game_id_of_room(session, room_code)
    return game_id


@router.get("/account", response_class=HTMLResponse)
async def account(request: Request) -> Response:
    """Sign up, sign in, and what a signed-in player does with their account (the page
    asks the API who is signed in). `?next=` is where to go once signed in: kept only as
    a path of this site (next_path.py)."""
    context = {"next": same_site_path(request.query_params.get("next"))}
    return request.app.state.templates.TemplateResponse(request, "account.html", context)


@router.get("/account/reset", response_class=HTMLResponse)
async def reset_password(request: Request) -> Response:
    """A forgotten password's link lands here (`#token=...`: the secret stays in the
    browser, never in a log); the page asks for the new password and posts both. `?next=`
    as on /account: a path of this site only."""
    context = {"next": same_site_path(request.query_params.get("next"))}
    return request.app.state.templates.TemplateResponse(request, "reset.html", context)


@router.get("/rules", response_class=HTMLResponse)
async def rules(request: Request) -> Response:
    """How to play, for a first-timer."""
    return request.app.state.templates.TemplateResponse(request, "rules.html", {})

"""HTML pages: the lobby at / and a table at /r/{code}; the table embeds its first view."""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from markupsafe import Markup

from server.rooms import RoomManager

from .error_pages import error_page
from .errors import EVERY_ROUTE, page_not_found

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
        request, "lobby.html", {"rooms": await manager.public_listing()}
    )


@router.get("/r/{code}", response_class=HTMLResponse, responses=page_not_found("room"))
async def table(code: str, request: Request) -> Response:
    manager: RoomManager = request.app.state.rooms
    room = manager.find(code)
    if room is None:
        return error_page(request, "room")
    context = {
        "code": room.display_code,
        "room": room.info(),
        "initial_view_json": script_json(room.view(None)),
    }
    return request.app.state.templates.TemplateResponse(request, "table.html", context)


@router.get("/rules", response_class=HTMLResponse)
async def rules(request: Request) -> Response:
    """How to play, for a first-timer."""
    return request.app.state.templates.TemplateResponse(request, "rules.html", {})

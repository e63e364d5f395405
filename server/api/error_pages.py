"""Styled, translated error pages for browsers; API clients keep their JSON errors.

A request "wants HTML" when it is not for the API, the websocket or a static file and its
Accept header names text/html (what a browser sends for a page). Such a request, refused
with 404 (unknown path) or 422 (a malformed path parameter, e.g. /games/abc), gets the site
page with its header, a sentence in the reader's language and a way back to the lobby.
Everything else is answered by the JSON handlers already installed (server/api/errors.py).
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import Any, Literal

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.exceptions import HTTPException

from .errors import error_response

# What is missing: a room code, a finished game, a player's profile, or any page at all.
Missing = Literal["room", "game", "player", "page"]
NOT_PAGES = ("/api/", "/ws/", "/static/", "/healthz", "/docs")

# As Starlette declares exception handlers: plain or async functions.
Handler = Callable[[Request, Any], Response | Awaitable[Response]]


def wants_html(request: Request) -> bool:
    path = request.url.path
    if path.startswith(NOT_PAGES):
        return False
    return "text/html" in request.headers.get("accept", "")


def missing_kind(path: str) -> Missing:
    if path.startswith("/r/"):
        return "room"
    if path.startswith("/games/"):
        return "game"
    if path.startswith("/u/"):
        return "player"
    return "page"


NOT_HERE = {
    "room": "there is no room with this code",
    "game": "this game is not in the history",
    "player": "there is no player of this name",
    "page": "there is nothing at this path",
}


def error_page(request: Request, kind: Missing, status: int = 404) -> Response:
    """The "not here" page for `kind` (its texts live in static/js/lang, error.*), or the
    usual JSON error for a client that does not ask for HTML."""
    if not wants_html(request):
        return error_response(status, "not_found", NOT_HERE[kind])
    context = {"kind": kind, "path": request.url.path}
    return request.app.state.templates.TemplateResponse(
        request, "error.html", context, status_code=status
    )


def _html_first(json_handler: Handler) -> Handler:
    async def handle(request: Request, exc: Exception) -> Response:
        if wants_html(request):
            status = getattr(exc, "status_code", 422)
            if isinstance(exc, RequestValidationError) or status == 404:
                return error_page(request, missing_kind(request.url.path))
        response = json_handler(request, exc)
        return await response if inspect.isawaitable(response) else response

    return handle


def install(app: FastAPI) -> None:
    """Wrap the JSON handlers of 404s and malformed paths (install after them)."""
    for exc_type in (HTTPException, RequestValidationError):
        json_handler = app.exception_handlers[exc_type]
        app.add_exception_handler(exc_type, _html_first(json_handler))

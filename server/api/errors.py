"""Every HTTP refusal has the same shape: {"error": {"code": str, "message": str}}."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.exceptions import HTTPException
from starlette.routing import Match

from server.error_codes import Refusal, codes_with_status


class ErrorDetail(BaseModel):
    code: str
    message: str


class ErrorBody(BaseModel):
    """The shape of every refusal."""

    error: ErrorDetail


def answers(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI `responses` for these error statuses, each in the error shape."""
    return {status: {"model": ErrorBody, "description": ERROR_STATUSES[status]}
            for status in statuses}


# The codes each status comes with, from the registry (server/error_codes.py).
ERROR_STATUSES = {status: ", ".join(codes_with_status(status))
                  for status in (400, 401, 403, 404, 405, 408, 409, 413, 415, 422, 429, 500,
                                 503)}
def page_not_found(what: str) -> dict[int | str, dict[str, Any]]:
    """OpenAPI `responses` of a page whose 404 is a page too (server/api/error_pages.py)."""
    return {404: {"description": f"no such {what}: a page saying so",
                  "content": {"text/html": {}}}}


# What any route may answer before it even runs (server/api/security.py) or on a bug.
EVERY_ROUTE = answers(400, 405, 408, 413, 422, 500)
STATE_CHANGING = answers(403, 404, 409, 415)


def error_response(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


async def _refusal(request: Request, exc: Exception) -> JSONResponse:
    """A room's, an account's or an import's refusal (server.error_codes.Refusal)."""
    assert isinstance(exc, Refusal)
    return error_response(exc.status, exc.code, exc.message)


async def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = exc.errors()
    message = "the request body is not valid"
    if errors:
        first = errors[0]
        where = ".".join(str(p) for p in first.get("loc", ())[1:])
        message = f"{where}: {first.get('msg', 'invalid')}" if where else first.get("msg", message)
    return error_response(422, "malformed", message)


HTTP_CODES = {400: "malformed", 404: "not_found", 405: "method_not_allowed"}


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    """With the exception's headers: a 405 says which methods the path takes (`Allow`)."""
    assert isinstance(exc, HTTPException)
    code = HTTP_CODES.get(exc.status_code, f"http_{exc.status_code}")
    response = error_response(exc.status_code, code, str(exc.detail))
    response.headers.update(exc.headers or {})
    if exc.status_code == 405:  # Starlette names the methods of the first route only
        response.headers["allow"] = ", ".join(allowed_methods(request))
    return response


def allowed_methods(request: Request) -> list[str]:
    """Every method some route takes at this path; HEAD with GET (server/api/security.py
    answers it as a GET)."""
    routes = request.app.router.routes
    methods = {method for method in METHODS
               if any(route.matches({**request.scope, "method": method})[0] is Match.FULL
                      for route in routes)}
    if "GET" in methods:
        methods.add("HEAD")
    return sorted(methods)


METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")  # the ones routes here may take


async def _internal_error(request: Request, exc: Exception) -> JSONResponse:
    """A bug: the same shape as every refusal (the traceback goes to the log, not here)."""
    return error_response(500, "internal", "the server failed on this request; it was logged")


def json_error_bodies(doc: dict[str, Any]) -> None:
    """A page's refusals are JSON too (these handlers answer them; only a 404 or a
    malformed path asked for as HTML is a page, server/api/error_pages.py), but FastAPI
    files a route's error models under the route's own media type, text/html for a page:
    file them under application/json, as they are sent."""
    error = {"schema": {"$ref": "#/components/schemas/ErrorBody"}}
    for operations in doc.get("paths", {}).values():
        for op in operations.values():
            if "text/html" not in op.get("responses", {}).get("200", {}).get("content", {}):
                continue
            for status, answer in op["responses"].items():
                if not status.startswith(("4", "5")):
                    continue
                content = answer.setdefault("content", {})
                html = content.get("text/html", {})
                if html.get("schema") == error["schema"] or status != "404":
                    content.pop("text/html", None)
                content["application/json"] = error


def install(app: FastAPI) -> None:
    app.add_exception_handler(Exception, _internal_error)
    app.add_exception_handler(Refusal, _refusal)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(HTTPException, _http_error)
    build = app.openapi

    def openapi() -> dict[str, Any]:
        fresh = app.openapi_schema is None
        doc = build()
        if fresh:
            json_error_bodies(doc)
        return doc

    app.openapi = openapi  # type: ignore[method-assign]

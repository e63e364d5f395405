"""Every HTTP refusal has the same shape: {"error": {"code": str, "message": str}}."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from server.rooms import RoomError


def error_response(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


async def _room_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RoomError)
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


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HTTPException)
    code = "not_found" if exc.status_code == 404 else f"http_{exc.status_code}"
    return error_response(exc.status_code, code, str(exc.detail))


async def _internal_error(request: Request, exc: Exception) -> JSONResponse:
    """A bug: the same shape as every refusal (the traceback goes to the log, not here)."""
    return error_response(500, "internal", "the server failed on this request; it was logged")


def install(app: FastAPI) -> None:
    app.add_exception_handler(Exception, _internal_error)
    app.add_exception_handler(RoomError, _room_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(HTTPException, _http_error)

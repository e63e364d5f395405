"""Refusals by a room: a stable code, a human sentence, and the HTTP status that fits."""

from __future__ import annotations

from server.error_codes import registered


class RoomError(Exception):
    """A room refused a request; nothing changed."""

    def __init__(self, code: str, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.code = registered(code)
        self.message = message
        self.status = status


def not_found() -> RoomError:
    return RoomError("not_found", "there is no such room", 404)


def forbidden(message: str = "this token may not do that") -> RoomError:
    return RoomError("forbidden", message, 403)

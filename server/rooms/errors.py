"""Refusals by a room: a stable code, a human sentence, and the HTTP status that fits."""

from __future__ import annotations

from server.error_codes import Refusal


class RoomError(Refusal):
    """A room refused a request; nothing changed."""


def not_found() -> RoomError:
    return RoomError("not_found", "there is no such room", 404)


def forbidden(message: str = "this token may not do that") -> RoomError:
    return RoomError("forbidden", message, 403)

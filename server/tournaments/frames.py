"""The tournament page's socket frames (`/tournaments/{id}/socket`, watch only): the
tournament's state (sent at once and whenever it changes here), and `error` (a registered
code: server/error_codes.py) for anything a client sends."""

from __future__ import annotations

from typing import Any

from server.rooms import outgoing


def tournament(doc: dict[str, Any]) -> dict[str, Any]:
    """The whole state of a tournament (server.tournaments.service.document)."""
    return {"type": "tournament", "tournament": doc}


def error(code: str, message: str) -> dict[str, Any]:
    """The table socket's error frame (its owner: server.rooms.outgoing)."""
    return outgoing.error(None, code, message)

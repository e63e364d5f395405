"""The recent refusals an operator sees: every coded error answer over HTTP and every error
frame on a table socket, the last RECENT of them and a count per code since the start; those
whose code means "slow down" (429, or a socket's `flood`) are the rate-limit hits.

`Watch` is an ASGI middleware outside every other (the Guard's own refusals included); it
reads an error answer's body only to learn its code (`{"error": {"code": ...}}`)."""

from __future__ import annotations

import time
from collections import Counter, deque
from dataclasses import dataclass
from typing import Any

import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from server.error_codes import ERRORS

RECENT = 100
SLOW_DOWN = {"flood", "too_many_sockets", "too_many_connections"}  # besides the 429s
BODY_READ = 4096  # an error body longer than this is not read for its code


def rate_limit(code: str) -> bool:
    entry = ERRORS.get(code)
    return code in SLOW_DOWN or (entry is not None and 429 in entry.statuses)


@dataclass(frozen=True, slots=True)
class Refused:
    at: float  # wall clock (time.time())
    where: str  # "http" or "socket"
    code: str
    status: int | None
    path: str | None
    client: str | None

    def to_dict(self) -> dict[str, Any]:
        return {"at": self.at, "where": self.where, "code": self.code, "status": self.status,
                "path": self.path, "client": self.client, "rate_limit": rate_limit(self.code)}


class Refusals:
    def __init__(self, keep: int = RECENT) -> None:
        self.recent: deque[Refused] = deque(maxlen=keep)
        self.counts: Counter[str] = Counter()

    def add(self, where: str, code: str, status: int | None = None, path: str | None = None,
            client: str | None = None) -> None:
        self.recent.append(Refused(time.time(), where, code, status, path, client))
        self.counts[code] += 1

    def socket(self, code: str, client: str | None) -> None:
        self.add("socket", code, None, None, client)

    def report(self) -> dict[str, Any]:
        return {"recent": [r.to_dict() for r in reversed(self.recent)],
                "counts": dict(self.counts.most_common()),
                "rate_limit_hits": sum(n for c, n in self.counts.items() if rate_limit(c))}


def _code(body: bytes) -> str | None:
    try:
        found = orjson.loads(body)["error"]["code"]
    except (orjson.JSONDecodeError, KeyError, TypeError):
        return None
    return found if isinstance(found, str) and found in ERRORS else None


class Watch:
    """Notes every HTTP answer of status 400 or more with its code (or its status alone)."""

    def __init__(self, app: ASGIApp, refusals: Refusals) -> None:
        self.app = app
        self.refusals = refusals

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        status = 0
        body = bytearray()
        json_body = False

        async def watched(message: Message) -> None:
            nonlocal status, json_body
            if message["type"] == "http.response.start":
                status = message["status"]
                json_body = status >= 400 and any(
                    k == b"content-type" and v.startswith(b"application/json")
                    for k, v in message.get("headers", []))
            elif message["type"] == "http.response.body" and status >= 400:
                if json_body and len(body) < BODY_READ:
                    body.extend(message.get("body", b"")[:BODY_READ])
                if not message.get("more_body", False):
                    self._note(scope, status, bytes(body) if json_body else b"")
            await send(message)

        await self.app(scope, receive, watched)

    def _note(self, scope: Scope, status: int, body: bytes) -> None:
        client = scope.get("client")
        code = _code(body) if body else None
        self.refusals.add("http", code or str(status), status, scope.get("path"),
                          None if client is None else client[0])

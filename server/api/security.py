"""The HTTP boundary, before any route runs: Host allow-list, body caps, what may change
state, and the security headers every response carries.

A pure ASGI middleware, so a refused request is answered without its body being read:
a declared Content-Length over the cap gets 413 at once, and a body sent without one is
counted as it arrives and refused as soon as it passes the cap. The bodies all requests
hold at once share one budget (HTTP_BODY_BUDGET): a body that would pass it is refused
with 503 `busy`, so parallel large bodies cannot take the server's memory.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from server.config import Settings
from server.jsontext import dumps
from server.memory import trim_malloc

from .origin import origin_allowed

STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# A form's body, as mail clients send RFC 8058's one-click POST (and as a page's form does).
FORM_MEDIA = frozenset({"application/x-www-form-urlencoded", "multipart/form-data"})

# No inline script or style anywhere; websockets go back to this same host ('self').
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),  # a table's link is its invitation: never leak it
    (b"x-frame-options", b"DENY"),
]


def host_name(header: str) -> str:
    """The name part of a Host header: no port, no IPv6 brackets, lower case."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].partition("]")[0]
    name, colon, port = header.rpartition(":")
    return name if colon and port.isdigit() else header


def host_allowed(headers: Headers, allowed: list[str]) -> bool:
    return "*" in allowed or host_name(headers.get("host", "")) in allowed


async def _answer(send: Send, status: int, code: str, message: str) -> None:
    body = dumps({"error": {"code": code, "message": message}}).encode()
    await send({
        "type": "http.response.start", "status": status,
        "headers": [(b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()), (b"connection", b"close"),
                    *SECURITY_HEADERS],
    })
    await send({"type": "http.response.body", "body": body})


class BodyBudget:
    """The bytes of request bodies held at once, all requests together; once they are all
    let go after a large total, freed memory is given back to the system."""

    TRIM_AFTER = 4_000_000  # bytes released since the last trim worth a malloc_trim

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.held = 0
        self.released = 0

    def take(self, size: int) -> bool:
        if self.held + size > self.budget:
            return False
        self.held += size
        return True

    def give_back(self, size: int) -> None:
        self.held -= size
        self.released += size
        if self.held == 0 and self.released >= self.TRIM_AFTER:
            self.released = 0
            trim_malloc()


class Spent:
    """read_body's answer when the budget is spent."""


SPENT: Final = Spent()
BUSY_ANSWER = (503, "busy", "the server is reading too many request bodies; retry in a moment")


class Guard:
    """Wraps the app; `body_limits` maps a path to its own cap (else HTTP_MAX_BODY).
    `link_paths` are path prefixes whose path holds the credential (a signed link sent by
    e-mail): a POST there may come from any site, with a form body or none."""

    def __init__(self, app: ASGIApp, settings: Settings, body_limits: Mapping[str, int],
                 link_paths: tuple[str, ...] = ()) -> None:
        self.app = app
        self.hosts = settings.allowed_hosts
        self.origins = settings.ALLOWED_ORIGINS
        self.default_limit = settings.HTTP_MAX_BODY
        self.body_limits = dict(body_limits)
        self.link_paths = link_paths
        self.bodies = BodyBudget(settings.HTTP_BODY_BUDGET)

    async def refuse_socket(self, scope: Scope, receive: Receive, send: Send) -> bool:
        """A websocket addressed to a host name not allowed is refused at the handshake
        (the client sees 403); True if it was."""
        if host_allowed(Headers(scope=scope), self.hosts):
            return False
        await receive()  # websocket.connect; closing now refuses the handshake (403)
        await send({"type": "websocket.close", "code": 1008, "reason": "host"})
        return True

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            if not await self.refuse_socket(scope, receive, send):
                await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refusal = self.refusal(scope)
        if refusal is not None:
            await _answer(send, *refusal)
            return
        limit = self.body_limits.get(scope["path"], self.default_limit)
        declared = Headers(scope=scope).get("content-length")
        held = [int(declared) if declared else 0]  # refusal() checked it is a number
        if not self.bodies.take(held[0]):
            await _answer(send, *BUSY_ANSWER)
            return
        try:
            body = await self.read_body(receive, limit, held)
            if body is None:
                await _answer(send, 413, "too_large", f"a request body is at most {limit} bytes")
            elif isinstance(body, Spent):
                await _answer(send, *BUSY_ANSWER)
            else:
                if scope["method"] == "HEAD":  # a GET whose body uvicorn does not send
                    scope = {**scope, "method": "GET"}
                await self.app(scope, self.replay(body, receive), self.with_headers(send))
        finally:
            self.bodies.give_back(held[0])

    def refusal(self, scope: Scope) -> tuple[int, str, str] | None:
        headers = Headers(scope=scope)
        # Health checks (the cluster's proxy, Docker) name no site: any Host may ask.
        if scope["path"] != "/healthz" and not host_allowed(headers, self.hosts):
            return 400, "bad_host", "this server does not answer to that host name"
        if scope["method"] in STATE_CHANGING:
            media = headers.get("content-type", "").partition(";")[0].strip().lower()
            if scope["method"] == "POST" and scope["path"].startswith(self.link_paths):
                if media not in FORM_MEDIA | {"", "application/json"}:
                    return 415, "unsupported_media_type", "send a form body, or none"
            elif not origin_allowed(headers, self.origins):
                return 403, "forbidden_origin", "requests from other sites are refused"
            elif media != "application/json":
                return 415, "unsupported_media_type", "send the body as application/json"
        length = headers.get("content-length")
        if length is not None:
            if not length.isdigit():
                return 400, "malformed", "Content-Length is not a number"
            limit = self.body_limits.get(scope["path"], self.default_limit)
            if int(length) > limit:
                return 413, "too_large", f"a request body is at most {limit} bytes"
        return None

    async def read_body(self, receive: Receive, limit: int,
                        held: list[int]) -> bytes | Spent | None:
        """The whole body, or None as soon as it passes `limit` bytes. Bytes past the
        `held[0]` taken from the budget (a body sent without a length) are taken as they
        come, and counted in `held[0]`; when the budget has none left: SPENT."""
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return b""
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                return None
            if size > held[0]:
                if not self.bodies.take(size - held[0]):
                    return SPENT
                held[0] = size
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    @staticmethod
    def replay(body: bytes, receive: Receive) -> Receive:
        sent = False

        async def replayed() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        return replayed

    @staticmethod
    def with_headers(send: Send) -> Send:
        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(n, v) for n, v in SECURITY_HEADERS if n not in present]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        return sending

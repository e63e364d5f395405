"""The HTTP boundary, before any route runs: Host allow-list, body caps, what may change
state, and the security headers every response carries.

A pure ASGI middleware, so a refused request is answered without its body being read:
a declared Content-Length over the cap gets 413 at once, and a body sent without one is
counted as it arrives and refused as soon as it passes the cap. The bodies all requests
hold at once share one budget (HTTP_BODY_BUDGET), and one client address may hold only its
share of it (HTTP_BODY_PER_ADDRESS): a body whose bytes would pass either is refused with
503 `busy`, so parallel large bodies cannot take the server's memory. Bytes are charged as
they arrive, never from a Content-Length (issue 41.2: 17 requests announcing 2 MB and
sending nothing held the whole budget, and every other POST got 503 for minutes), and a
body must arrive whole within HTTP_BODY_TIMEOUT (408 `slow_body`, its bytes given back).

A state change is checked (Origin, JSON) only where a route takes it: a method the path
does not take is the router's 405 with `Allow`, whatever it carries (issue 41.18).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Final

from starlette.datastructures import Headers
from starlette.routing import Match
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


def host_allowed(scope: Scope, allowed: list[str]) -> bool:
    """One Host header, naming an allowed host. Two are refused whatever they name: the
    allow-list would read one, and a proxy or a page builder might read the other."""
    hosts = [value for name, value in scope["headers"] if name == b"host"]
    if len(hosts) > 1:
        return False
    return "*" in allowed or host_name(hosts[0].decode("latin-1") if hosts else "") in allowed


def routed(scope: Scope) -> bool:
    """Whether a route takes this method at this path: what it does not take is the
    router's 404 or 405 (with Allow), whatever its Origin or body."""
    return any(route.matches(scope)[0] is Match.FULL for route in scope["app"].router.routes)


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
    """The bytes of request bodies held at once, all requests together and by client
    address (each its `share`), counted as they arrive; once they are all let go after a
    large total, freed memory is given back to the system."""

    TRIM_AFTER = 4_000_000  # bytes released since the last trim worth a malloc_trim

    def __init__(self, budget: int, share: int) -> None:
        self.budget = budget
        self.share = share
        self.held = 0
        self.by_address: dict[str, int] = {}
        self.released = 0

    def take(self, address: str, size: int) -> bool:
        mine = self.by_address.get(address, 0)
        if self.held + size > self.budget or mine + size > self.share:
            return False
        self.held += size
        self.by_address[address] = mine + size
        return True

    def give_back(self, address: str, size: int) -> None:
        if not size:
            return
        self.held -= size
        mine = self.by_address[address] - size
        if mine:
            self.by_address[address] = mine
        else:
            del self.by_address[address]
        self.released += size
        if self.held == 0 and self.released >= self.TRIM_AFTER:
            self.released = 0
            trim_malloc()


class Charge:
    """What one request's body holds of the budget so far."""

    __slots__ = ("address", "budget", "held")

    def __init__(self, budget: BodyBudget, address: str) -> None:
        self.budget, self.address, self.held = budget, address, 0

    def grow(self, size: int) -> bool:
        if not self.budget.take(self.address, size):
            return False
        self.held += size
        return True

    def release(self) -> None:
        self.budget.give_back(self.address, self.held)
        self.held = 0


class Spent:
    """read_body's answer when the budget (or the address's share of it) is spent."""


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
        self.bodies = BodyBudget(settings.HTTP_BODY_BUDGET, settings.HTTP_BODY_PER_ADDRESS)
        self.body_timeout = settings.HTTP_BODY_TIMEOUT

    async def refuse_socket(self, scope: Scope, receive: Receive, send: Send) -> bool:
        """A websocket addressed to a host name not allowed (or to two) is refused at the
        handshake (the client sees 403); True if it was."""
        if host_allowed(scope, self.hosts):
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
        client = scope.get("client")
        charge = Charge(self.bodies, "" if client is None else client[0])
        try:
            try:
                async with asyncio.timeout(self.body_timeout):
                    body = await self.read_body(receive, limit, charge)
            except TimeoutError:
                await _answer(send, 408, "slow_body", "the request body did not arrive "
                              f"within {self.body_timeout:g} s")
                return
            if body is None:
                await _answer(send, 413, "too_large", f"a request body is at most {limit} bytes")
            elif isinstance(body, Spent):
                await _answer(send, *BUSY_ANSWER)
            else:
                if scope["method"] == "HEAD":  # a GET whose body uvicorn does not send
                    scope = {**scope, "method": "GET"}
                await self.app(scope, self.replay(body, receive), self.with_headers(send))
        finally:
            charge.release()

    def refusal(self, scope: Scope) -> tuple[int, str, str] | None:
        headers = Headers(scope=scope)
        # Health checks (the cluster's proxy, Docker) name no site: any Host may ask.
        if scope["path"] != "/healthz" and not host_allowed(scope, self.hosts):
            return 400, "bad_host", "this server does not answer to that host name"
        if scope["method"] in STATE_CHANGING:
            refused = self.state_change_refusal(scope, headers)
            if refused is not None and routed(scope):
                return refused
        length = headers.get("content-length")
        if length is not None:
            if not length.isdigit():
                return 400, "malformed", "Content-Length is not a number"
            limit = self.body_limits.get(scope["path"], self.default_limit)
            if int(length) > limit:
                return 413, "too_large", f"a request body is at most {limit} bytes"
        return None

    def state_change_refusal(self, scope: Scope,
                             headers: Headers) -> tuple[int, str, str] | None:
        media = headers.get("content-type", "").partition(";")[0].strip().lower()
        if scope["method"] == "POST" and scope["path"].startswith(self.link_paths):
            if media not in FORM_MEDIA | {"", "application/json"}:
                return 415, "unsupported_media_type", "send a form body, or none"
        elif not origin_allowed(headers, self.origins):
            return 403, "forbidden_origin", "requests from other sites are refused"
        elif media != "application/json":
            return 415, "unsupported_media_type", "send the body as application/json"
        return None

    async def read_body(self, receive: Receive, limit: int,
                        charge: Charge) -> bytes | Spent | None:
        """The whole body, or None as soon as it passes `limit` bytes. Its bytes are
        charged to the budget as they come (a Content-Length reserves nothing: a body
        that never comes holds nothing); past the budget or the address's share: SPENT."""
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return b""
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                return None
            if chunk and not charge.grow(len(chunk)):
                return SPENT
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

"""Every request for a room is served by the room's owner.

The proxy (HAProxy) sends all requests for one room code to one instance (hash of the code).
That instance becomes the owner if it is not yet: it claims the room, asking the current
holder to hand it over (`Ownership.ensure`). So a room follows the proxy's routing — after
a failover, a restart or a change of instances — at the cost of one reconnect for the
sockets of the previous owner. Non-canonical codes in page URLs are redirected to the
canonical form first, so the proxy hashes one form per room.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from server.rooms import RoomError, display, normalize

if TYPE_CHECKING:  # a type only: Redis is imported where a cluster is made
    from .ownership import Ownership

ROOM_PATH = re.compile(r"^/(?:r|ws|api/rooms)/([^/]+)")


class OwnerRouting:
    """ASGI middleware: claim the room a request names before the app sees the request,
    and name this instance in every HTTP answer (`X-Instance`)."""

    def __init__(self, app: ASGIApp, ownership: Ownership) -> None:
        self.app = app
        self.ownership = ownership
        self.instance_header = (b"x-instance", ownership.instance.encode())

    async def refuse_socket(self, scope: Scope, receive: Receive, send: Send) -> bool:
        """A websocket for a room: claim the room first. True if it could not be claimed
        (the socket is closed with 1013 at once; the client retries)."""
        match = ROOM_PATH.match(scope["path"])
        code = None if match is None else normalize(match.group(1))
        if code is None:
            return False
        try:
            await self.ownership.ensure(code)
        except RoomError as error:
            await self._refuse(scope, receive, send, error)
            return True
        return False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            if not await self.refuse_socket(scope, receive, send):
                await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        match = ROOM_PATH.match(scope["path"])
        code = None if match is None else normalize(match.group(1))
        send = self._named(send)
        if code is not None:
            given = match.group(1) if match else ""
            if scope["method"] in ("GET", "HEAD") and given not in (code, display(code)):
                await self._redirect(scope, send, given, display(code))
                return
            try:
                await self.ownership.ensure(code)
            except RoomError as error:
                await self._refuse(scope, receive, send, error)
                return
        await self.app(scope, receive, send)

    def _named(self, send: Send) -> Send:
        async def named(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), self.instance_header]
            await send(message)
        return named

    @staticmethod
    async def _redirect(scope: Scope, send: Send, given: str, canonical: str) -> None:
        path = scope["path"].replace(given, canonical, 1)
        query = scope.get("query_string", b"")
        location = path + ("?" + query.decode("latin-1") if query else "")
        await send({"type": "http.response.start", "status": 308,
                    "headers": [(b"location", location.encode())]})
        await send({"type": "http.response.body", "body": b""})

    @staticmethod
    async def _refuse(scope: Scope, receive: Receive, send: Send, error: RoomError) -> None:
        if scope["type"] == "websocket":
            # Accepted, then closed 1013 with the error's code as the reason, as PROTOCOL.md
            # says: a close before the accept reaches the client as an HTTP 403, which reads
            # as "forbidden", not "retry soon". The client reconnects with backoff.
            await receive()
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": 1013, "reason": error.code})
            return
        body = orjson.dumps({"error": {"code": error.code, "message": error.message}})
        await send({"type": "http.response.start", "status": error.status, "headers": [
            (b"content-type", b"application/json"), (b"retry-after", b"1"),
        ]})
        await send({"type": "http.response.body", "body": body})

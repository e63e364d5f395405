"""The table socket's way in: `/ws/{code}` is served from the app's entry point, not
through the HTTP stack.

Every layer a request passes through stays alive as long as the request runs, and a
table socket runs for a whole game: through Starlette's and FastAPI's middlewares, router
and dependency solving that is ~15 coroutine frames, four exit stacks and exception
wrappers around `send`, ~12 KiB per socket (bench/memory.py), for layers that do nothing
to a websocket. What they do do to one is done here, in the same order: a middleware added
with `App.add_guard` screens the table sockets too, through its `refuse_socket` (the Host
allow-list of api.security, then, in cluster mode, claiming the room in cluster.routing).
Any other websocket path still goes through the whole stack (which refuses it).

Before those checks, each client address may hold WS_PER_ADDRESS table sockets at once
(`socket_addresses`); the next is accepted only to be told why: error `too_many_sockets`,
close 1013 (try again later).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Protocol

from fastapi import FastAPI, WebSocket
from starlette.types import Receive, Scope, Send

from server.jsontext import dumps
from server.rooms import outgoing
from server.rooms.crowd import AddressCap

from .endpoint import table_socket


class SocketGuard(Protocol):
    """An ASGI middleware that also screens the table sockets."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None: ...

    async def refuse_socket(self, scope: Scope, receive: Receive, send: Send) -> bool:
        """Answer the socket with a refusal and return True, or return False."""
        ...


SOCKET_PATH = re.compile(r"^/ws/([^/]+)$")  # Starlette's "/ws/{code}"


class App(FastAPI):
    """FastAPI, with the table sockets taken off the HTTP stack (see above)."""

    def __init__(self, *, socket_addresses: AddressCap, **options: Any) -> None:
        super().__init__(**options)
        self.socket_addresses = socket_addresses
        self.socket_guards: list[SocketGuard] = []

    def add_guard(self, guard: Callable[..., SocketGuard], **options: Any) -> None:
        """Add `guard` as a middleware, and to the table sockets' way in: the last added
        runs first on both. The sockets get an instance of their own, which only screens
        (it has no app behind it: an accepted socket goes on to the table)."""
        self.add_middleware(guard, **options)
        self.socket_guards.insert(0, guard(app=None, **options))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            # Only the code is kept: this frame lives as long as the socket.
            code = _table_code(scope)
            if code is not None:
                client = scope.get("client")
                address = "" if client is None else client[0]
                if not self.socket_addresses.enter(address):
                    await _too_many(receive, send)
                    return
                try:
                    scope["app"] = self
                    for guard in self.socket_guards:
                        if await guard.refuse_socket(scope, receive, send):
                            return
                    await table_socket(WebSocket(scope, receive, send), code, receive, send)
                finally:
                    self.socket_addresses.leave(address)
                return
        await super().__call__(scope, receive, send)


async def _too_many(receive: Receive, send: Send) -> None:
    """Accepted only to say why (a refused handshake cannot): error, then close 1013."""
    await receive()  # websocket.connect
    await send({"type": "websocket.accept"})
    error = outgoing.error(None, "too_many_sockets", "this address has too many sockets open")
    await send({"type": "websocket.send", "text": dumps(error)})
    await send({"type": "websocket.close", "code": 1013, "reason": "too_many_sockets"})


def _table_code(scope: Scope) -> str | None:
    match = SOCKET_PATH.match(route_path(scope))
    return None if match is None else match.group(1)


def route_path(scope: Scope) -> str:
    """The path the routes see: `path` without the `root_path` the app is mounted under
    (as Starlette's router takes it; ASGI puts the mount point in both)."""
    path: str = scope["path"]
    root = scope.get("root_path", "")
    if root and path.startswith(root) and (len(path) == len(root) or path[len(root)] == "/"):
        return path[len(root):]
    return path

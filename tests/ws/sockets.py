"""A real uvicorn websocket protocol (ours) on an in-memory transport, its handshake
answered: for tests of what it writes."""

from __future__ import annotations

import asyncio

from uvicorn.config import Config
from uvicorn.server import ServerState

from server.ws.protocol import AnsweringWebSocketProtocol


class Transport(asyncio.Transport):
    """Enough of a transport for a handshake: it keeps what is written."""

    def __init__(self) -> None:
        super().__init__()
        self.written = b""
        self.writes = 0
        self.closing = False
        self.protocol: asyncio.BaseProtocol | None = None

    def get_extra_info(self, name, default=None):
        if name in ("sockname", "peername"):  # new objects at each call, as a socket's
            return ("".join(("127.0.0.", "1")), int("8000"))
        return default

    def write(self, data) -> None:
        self.written += bytes(data)
        self.writes += 1

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self.protocol = protocol

    def get_protocol(self) -> asyncio.BaseProtocol | None:
        return self.protocol

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


UPGRADE = (b"GET /ws/X HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
           b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
           b"Sec-WebSocket-Version: 13\r\n")
DEFLATE = b"Sec-WebSocket-Extensions: permessage-deflate\r\n"


def config(accepted: asyncio.Event, deflate: bool = False) -> Config:
    """uvicorn's settings for an app that accepts the socket, then waits."""

    async def app(scope, receive, send):
        await receive()
        await send({"type": "websocket.accept"})
        accepted.set()
        await receive()

    config = Config(app, ws=AnsweringWebSocketProtocol, log_level="warning",
                    ws_per_message_deflate=deflate)
    config.load()
    return config


async def open_socket(deflate: bool = False):
    """An AnsweringWebSocketProtocol on a `Transport`, its handshake answered."""
    accepted = asyncio.Event()
    protocol = AnsweringWebSocketProtocol(config(accepted, deflate), ServerState(), {})
    transport = Transport()
    protocol.connection_made(transport)
    protocol.data_received(UPGRADE + (DEFLATE if deflate else b"") + b"\r\n")
    await asyncio.wait_for(accepted.wait(), 5)
    return protocol, transport

"""A websocket client speaking ASGI to the app in-process, which can stop reading: to the
app, a client that stopped reading is a `send` that never returns (uvicorn's send waits
while the transport's buffer is full)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import FastAPI


class AsgiSocket:
    """A websocket client at `address` speaking ASGI to the app: it keeps the frames it is
    sent; once `stuck`, a send to it never returns (it stopped reading)."""

    def __init__(self, app: FastAPI, path: str, address: str) -> None:
        self.frames: list[dict[str, Any]] = []
        self.closed: tuple[int, str] | None = None
        self.stuck = False
        self.read = 0  # frames taken by `receive`
        self.heard = asyncio.Event()
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.inbox.put_nowait({"type": "websocket.connect"})
        scope = {"type": "websocket", "asgi": {"version": "3.0"}, "scheme": "ws",
                 "path": path, "raw_path": path.encode(), "root_path": "", "query_string": b"",
                 "headers": [(b"host", b"testserver")], "client": (address, 40000),
                 "server": ("testserver", 80), "subprotocols": []}
        self.task = asyncio.create_task(app(scope, self.inbox.get, self.send))

    async def send(self, message: dict[str, Any]) -> None:
        if message["type"] == "websocket.close":
            self.closed = (message.get("code", 1000), message.get("reason", ""))
        elif message["type"] == "websocket.send":
            if self.stuck:
                await asyncio.Event().wait()
            self.frames.append(json.loads(message["text"]))
        self.heard.set()

    async def next(self) -> dict[str, Any]:
        """The next frame it is sent (within 10 s)."""
        count = len(self.frames)
        async with asyncio.timeout(10):
            while len(self.frames) == count:
                self.heard.clear()
                await self.heard.wait()
        return self.frames[count]

    async def receive(self) -> dict[str, Any]:
        """The first frame not yet received (within 10 s), however long ago it came."""
        async with asyncio.timeout(10):
            while len(self.frames) == self.read:
                self.heard.clear()
                await self.heard.wait()
        self.read += 1
        return self.frames[self.read - 1]

    def say(self, text: str) -> None:
        """The client sends a text frame."""
        self.inbox.put_nowait({"type": "websocket.receive", "text": text})

    async def leave(self) -> None:
        self.inbox.put_nowait({"type": "websocket.disconnect", "code": 1000})
        async with asyncio.timeout(10):
            await self.task

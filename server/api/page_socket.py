"""A page socket that only listens, or answers a few frames, and is sent whole states: the
tournament page's (`/tournaments/{id}/socket`) and the lobby's (`/lobby/socket`). Its one
writer: the newest state waits to go out, not a queue of them, and nothing waits on it.

Each state frame is the whole state, so a state not yet sent is replaced by a newer one
(`offer`): a slow reader gets fewer states, never an older one after a newer, and the socket
holds one state at most however far behind it is. The few frames that are not states (the
lobby's answers: `queued`, `seated`, `cancelled`, an error) must all go out, in order
(`send`), before the state waiting; past OUTBOX of them the socket is closed (it gets the
state again when it is back). Neither waits. A frame that does not go out within `timeout`
seconds (WS_SEND_TIMEOUT: the client stopped reading and the transport's buffer is full)
ends the writer with TimeoutError, and the route drops the socket, freeing its address's
place; before, a socket left unread held its writer blocked until the keepalive ping gave up
on it (40 s).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Coroutine
from typing import Any

from fastapi import WebSocket
from starlette.websockets import WebSocketDisconnect

# A socket that went away while its writer was sending: nothing more to do for it.
GONE = (WebSocketDisconnect, RuntimeError, OSError)
OUTBOX = 32  # frames other than states a socket may fall behind by before it is closed


class PageSocket:
    __slots__ = ("ws", "client", "timeout", "pending", "events", "ending", "wake")

    def __init__(self, ws: WebSocket, timeout: float) -> None:
        self.ws = ws
        self.client = ws.client.host if ws.client else "unknown"
        self.timeout = timeout
        self.pending: str | None = None  # the newest state, not yet sent
        self.events: deque[str] = deque()  # frames that must all go out, oldest first
        self.ending: tuple[str | None, int, str] | None = None  # (last frame, code, reason)
        self.wake = asyncio.Event()

    def offer(self, text: str) -> None:
        """The newest whole state: it replaces one still waiting. Never waits."""
        if self.ending is None:
            self.pending = text
            self.wake.set()

    def send(self, text: str) -> None:
        """A frame that is not a state: it goes out after those sent before it. Never
        waits; the OUTBOX+1st still waiting closes the socket instead."""
        if self.ending is not None:
            return
        if len(self.events) >= OUTBOX:
            self.end(None, 1008, "lagging")
            return
        self.events.append(text)
        self.wake.set()

    def end(self, last: str | None, code: int, reason: str) -> None:
        """After what is waiting, `last` (if any) goes out, then the close."""
        if self.ending is None:
            self.ending = (last, code, reason)
            self.wake.set()

    async def write(self) -> None:
        """Send what is sent and offered until the end is sent; TimeoutError if a frame
        cannot go out within the timeout (or the close cannot)."""
        while True:
            await self.wake.wait()
            self.wake.clear()
            while self.events:
                await self._send(self.events.popleft())
            text, self.pending = self.pending, None
            if text is not None:
                await self._send(text)
            if self.ending is not None and not self.events and self.pending is None:
                last, code, reason = self.ending
                if last is not None:
                    await self._send(last)
                async with asyncio.timeout(self.timeout):
                    await self.ws.close(code, reason)
                return

    async def serve(self, reading: Coroutine[Any, Any, object]) -> None:
        """The writer alongside `reading` (the route's reader of what the client sends),
        until either ends; an end the reading asked for (`end`) is sent first. Then both
        are stopped: a socket gone, or too slow, needs nothing more."""
        writer = asyncio.create_task(self.write())
        reader = asyncio.create_task(reading)
        try:
            await asyncio.wait({writer, reader}, return_when=asyncio.FIRST_COMPLETED)
            if reader.done() and self.ending is not None:
                await asyncio.wait({writer})
        finally:
            for task in (reader, writer):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, TimeoutError, *GONE):
                    await task

    async def _send(self, text: str) -> None:
        async with asyncio.timeout(self.timeout):
            await self.ws.send_text(text)


async def heard(ws: WebSocket) -> bool:
    """Until the client sends a frame (True: a socket that only listens refuses it) or goes
    (False). Any frame counts: text, binary, JSON or not."""
    try:
        message = await ws.receive()
    except GONE:
        return False
    return message["type"] != "websocket.disconnect"

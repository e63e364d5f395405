"""The websocket route /ws/{code} (reached through server.ws.route): one reader loop per
socket; frames are written as they are queued (server.ws.writer), by a task only while a
socket is too slow to take them.

Close codes: 1000 normal (after bye: replaced, kicked, left, expired), 1008 policy
(flood, foreign Origin, no hello in WS_HELLO_TIMEOUT), 1009 frame too large, 1012 server
restarting, 1013 too many sockets from one address (server.ws.route), 4404 no such room.
"""

from __future__ import annotations

import asyncio
import time

from fastapi import WebSocket
from starlette.types import Receive, Send

from server.api.origin import origin_allowed
from server.rooms import RoomManager, outgoing

from .session import Session
from .writer import Writer


class _Reader:
    """The reader's side of the socket: it stops when the writer ends (the close went out,
    the socket failed, a frame could not go out in time). Only a reader waiting for the
    next frame is interrupted, never one in the middle of handling a frame."""

    __slots__ = ("task", "waiting", "stopped")

    def __init__(self) -> None:
        self.task = asyncio.current_task()
        self.waiting = False
        self.stopped = False

    def stop(self) -> None:
        self.stopped = True
        if self.waiting and self.task is not None:
            self.task.cancel()


def _no_hello(session: Session) -> None:
    if not session.greeted:
        session.conn.close("no_hello", 1008)


async def table_socket(ws: WebSocket, code: str, receive: Receive, send: Send) -> None:
    """Serve one table socket; `receive` and `send` are its raw ASGI channel (the one `ws`
    wraps), for one write per frame without Starlette's per-call state checks (the accept
    and the checks here go through `ws`)."""
    settings = ws.app.state.settings
    manager: RoomManager = ws.app.state.rooms
    if not origin_allowed(ws.headers, settings.ALLOWED_ORIGINS):
        await ws.close(1008, "origin not allowed")  # before accept: the handshake fails
        return
    await ws.accept()
    room = manager.find(code)
    if room is None:
        await ws.send_json(outgoing.error(None, "not_found", "there is no such room"))
        await ws.close(4404, "not_found")
        return
    address = ws.client.host if ws.client else None
    session = Session(room, settings, time.monotonic, ws.app.state.metrics, address,
                      getattr(ws.app.state, "hints", None),
                      getattr(ws.app.state, "muted_accounts", ()))
    reader = _Reader()
    writer = Writer(session.conn, send, settings.WS_SEND_TIMEOUT, reader.stop)
    silent: asyncio.TimerHandle | None = asyncio.get_running_loop().call_later(
        settings.WS_HELLO_TIMEOUT, _no_hello, session)
    del ws  # the wrapper is not needed for the socket's life (~0.5 KiB a socket)
    try:
        while not reader.stopped:
            reader.waiting = True
            try:
                message = await receive()
            except asyncio.CancelledError:
                if not reader.stopped or reader.task is None or reader.task.uncancel():
                    raise  # cancelled from outside (the server is stopping)
                break
            finally:
                reader.waiting = False
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                try:
                    text = (message.get("bytes") or b"").decode()
                except UnicodeDecodeError:
                    text = "\x00"  # not JSON: answered as malformed
            # A socket waits for its next frame far longer than it handles one: the last
            # frame is not kept meanwhile (~0.3 KiB a socket).
            del message
            if not await session.receive(text):
                break
            del text
            if silent is not None and session.greeted:  # its timer is not kept for its life
                silent.cancel()
                silent = None
    finally:
        if silent is not None:
            silent.cancel()
        await room.detach(session.conn)
        if session.conn.closing:  # let the bye and close frame go out
            await writer.flush(5)
        writer.stop()

"""The websocket route /ws/{code}: one reader loop, one writer task per socket.

Close codes: 1000 normal (after bye: replaced, kicked, left, expired), 1008 policy
(flood, foreign Origin), 1009 frame too large, 1012 server restarting, 4404 no such room.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from server.rooms import Close, Connection, RoomManager
from server.rooms.stages import Stages

from .origin import origin_allowed
from .session import Session

router = APIRouter()


async def _write(ws: WebSocket, conn: Connection, timeout: float) -> None:
    """Drain the outbox to the socket until a Close item, the socket fails, or one frame
    could not go out within `timeout` seconds (a reader that stopped reading is dropped)."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError, asyncio.TimeoutError):
        while True:
            item = await conn.outbox.get()
            if isinstance(item, Close):
                await asyncio.wait_for(ws.close(item.code, item.reason), timeout)
                return
            if isinstance(item, Stages):
                item.written()
                continue
            await asyncio.wait_for(ws.send_text(item), timeout)


@router.websocket("/ws/{code}")
async def table_socket(ws: WebSocket, code: str) -> None:
    settings = ws.app.state.settings
    manager: RoomManager = ws.app.state.rooms
    if not origin_allowed(ws.headers, settings.ALLOWED_ORIGINS):
        await ws.close(1008, "origin not allowed")  # before accept: the handshake fails
        return
    await ws.accept()
    room = manager.find(code)
    if room is None:
        await ws.send_json(
            {"type": "error", "id": None, "code": "not_found", "message": "there is no such room"}
        )
        await ws.close(4404, "not_found")
        return
    session = Session(room, settings, time.monotonic, ws.app.state.metrics)
    writer = asyncio.create_task(_write(ws, session.conn, settings.WS_SEND_TIMEOUT))
    try:
        while True:
            receiving = asyncio.ensure_future(ws.receive())
            await asyncio.wait({receiving, writer}, return_when=asyncio.FIRST_COMPLETED)
            if not receiving.done():  # the writer closed the socket (bye was sent)
                receiving.cancel()
                break
            message = receiving.result()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                try:
                    text = (message.get("bytes") or b"").decode()
                except UnicodeDecodeError:
                    text = "\x00"  # not JSON: answered as malformed
            if not await session.receive(text):
                break
    except WebSocketDisconnect:
        pass
    finally:
        await room.detach(session.conn)
        if session.conn.closing:  # let the bye and close frame go out
            with contextlib.suppress(asyncio.TimeoutError, Exception):
                await asyncio.wait_for(asyncio.shield(writer), 5)
        writer.cancel()

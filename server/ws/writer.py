"""One socket's writer: drains its Connection's outbox onto the socket: text frames straight
onto the transport (AnsweringWebSocketProtocol.write_texts_now, those queued together in
one write) whenever it can take them as they are, the rest (and everything under another
server) through the raw ASGI `send`.

A frame is written the moment it is queued, inside the caller (the room's fan-out), as long
as the socket takes it without waiting; that is the common case, and it costs no task, no
future and no timer per frame. Only when the server's send would wait (the client stopped
reading and the transport's buffer is full) does a task take over: it finishes that frame
within `timeout` seconds, then goes back to writing at once. A frame that cannot go out in
time, or a socket that fails, ends the writer: `on_end` is called (the reader stops).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any, cast

from starlette.types import Message, Send

from server.rooms import Close, Connection
from server.rooms.stages import Stages

from .protocol import AnsweringWebSocketProtocol

Yielded = Any  # what a coroutine hands its task when it waits: a future, or None


def start(awaitable: Awaitable[None]) -> Coroutine[Any, Any, None] | None:
    """Run a coroutine up to its first wait: None if it finished without waiting, else a
    coroutine that finishes it (await it from a task)."""
    coro = cast(Coroutine[Any, Any, None], awaitable)  # an ASGI send is a coroutine function
    try:
        yielded = coro.send(None)
    except StopIteration:
        return None
    return _finish(coro, yielded)


async def _finish(coro: Coroutine[Any, Any, None], yielded: Yielded) -> None:
    """Drive a coroutine that waited on `yielded`, as its task would have."""
    while True:
        try:
            if yielded is None:
                await asyncio.sleep(0)
            else:
                await yielded
        except BaseException as exc:  # cancelled (the timeout): the coroutine hears of it
            try:
                yielded = coro.throw(exc)
            except StopIteration:
                return
            continue
        try:
            yielded = coro.send(None)
        except StopIteration:
            return


def message(item: object) -> Message:
    if type(item) is str:
        return {"type": "websocket.send", "text": item}
    assert isinstance(item, Close)
    return {"type": "websocket.close", "code": item.code, "reason": item.reason}


def _texts_ahead(outbox: list[Any]) -> list[str]:
    """The text frames at the head of the outbox, up to the first other item."""
    texts = []
    for item in outbox:
        if type(item) is not str:
            break
        texts.append(item)
    return texts


class Writer:
    __slots__ = ("conn", "send", "write_now", "timeout", "on_end", "task", "ended")

    def __init__(self, conn: Connection, send: Send, timeout: float,
                 on_end: Callable[[], None]) -> None:
        self.conn = conn
        self.send = send
        # Our uvicorn protocol's shortcut for text frames (see write_texts_now), when `send`
        # is its ASGI send (not under a test client).
        protocol = getattr(send, "__self__", None)
        self.write_now: Callable[[Sequence[str]], bool] | None = (
            protocol.write_texts_now if isinstance(protocol, AnsweringWebSocketProtocol)
            else None)
        self.timeout = timeout
        self.on_end = on_end
        self.task: asyncio.Task[None] | None = None  # finishing a frame that had to wait
        self.ended = False  # the close went out, or the socket failed
        conn.wakeup = self.wakeup
        if self.write_now is not None:
            conn.write = self.write_one

    def write_one(self, text: str) -> bool:
        """Write a text frame that has nothing queued ahead of it, at once: False if it
        must be queued instead (the socket cannot take it as it is, or the writer ended).
        The shortcut of drain for the common case, a frame at a time (the room's fan-out)."""
        write_now = self.write_now
        if write_now is None or self.task is not None or self.ended:
            return False
        try:
            return write_now((text,))
        except Exception:  # the client is gone: as in drain, the frame goes with the rest
            self.end()
            return True

    def wakeup(self) -> None:
        if self.task is None and not self.ended:
            self.drain()

    def drain(self) -> None:
        """Write queued items until the outbox is empty or a send has to wait."""
        outbox = self.conn.outbox
        while outbox and not self.ended:
            item = outbox[0]
            if type(item) is Stages:
                outbox.popleft()
                item.written()
                continue
            try:
                if type(item) is str and self.write_now is not None:
                    texts = _texts_ahead(outbox)
                    if self.write_now(texts):
                        del outbox[:len(texts)]
                        continue
                waiting = start(self.send(message(item)))
            except Exception:  # the client is gone (ClientDisconnected, a closed transport)
                self.end()
                return
            if waiting is not None:
                self.task = asyncio.ensure_future(self._wait(waiting))
                return
            outbox.popleft()
            if type(item) is Close:
                self.end()

    async def _wait(self, waiting: Coroutine[Any, Any, None]) -> None:
        try:
            async with asyncio.timeout(self.timeout):
                await waiting
        except Exception:  # too slow a reader (TimeoutError), or the client is gone
            self.task = None
            self.end()
            return
        self.task = None
        item = self.conn.outbox.popleft()
        if type(item) is Close:
            self.end()
        else:
            self.drain()

    def end(self) -> None:
        """Nothing more goes out on this socket: what is queued is dropped."""
        if not self.ended:
            self.ended = True
            self.conn.outbox.clear()
            self.on_end()

    async def flush(self, grace: float) -> None:
        """Give the frames still queued up to `grace` seconds more (the bye, at the end)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + grace
        while self.task is not None and loop.time() < deadline:
            await asyncio.wait({self.task}, timeout=deadline - loop.time())

    def stop(self) -> None:
        self.conn.wakeup = self.conn.write = None
        if self.task is not None:
            self.task.cancel()

"""uvicorn's protocols as the table sockets use them: the websocket protocol answering a
frame over the size cap the documented way, holding less per socket and writing table
frames straight onto the transport; the HTTP protocol they start on, leaving no garbage.

uvicorn refuses a frame bigger than `ws_max_size` from its header, before reading it (so
it costs no memory), and closes with 1009 before the app hears of it. This subclass puts
the same error and bye frames the session sends for a too-large frame ahead of that close.

Memory: a table socket lives for a whole game, so what uvicorn keeps per socket counts
(bench/memory.py). Its asyncio.Queue of incoming events (three deques and an Event, ~2.5
KiB) becomes an `Inbox` (a list and at most one future), its `writable` Event (a deque) a
`Gate`, and the handshake's request and response (their headers, ~2 KiB) are dropped once
the handshake is answered. The next keepalive ping waits on the loop's shared timers
(server/ws/keepalive.py), not a loop timer of its own (~0.6 KiB). uvicorn sets 37
attributes per connection, past what Python's shared-key instance dicts hold (30), so each
socket had a dict of its own (~1.5 KiB): slots named after them take the assignments
instead (an attribute a later uvicorn adds still works, in a dict; tests/ws/test_protocol.py
notices).
"""

from __future__ import annotations

import asyncio
import struct
import sys
from collections.abc import Sequence
from typing import Any, ClassVar

from starlette.types import Message
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import PayloadTooBig
from websockets.frames import Frame, Opcode
from websockets.protocol import OPEN

from .frames import too_large_texts
from .headwrite import HeadWithBody
from .httplimits import SLOW_HEAD, TOO_MANY, HttpLimits, refusal
from .keepalive import timers


class Inbox:
    """What uvicorn's protocol uses of asyncio.Queue (unbounded: uvicorn pauses reading
    after each message until the app has taken it), for one reader."""

    __slots__ = ("items", "waiter")

    def __init__(self) -> None:
        self.items: list[Message] = []
        self.waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: Message) -> None:
        self.items.append(item)
        waiter, self.waiter = self.waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def empty(self) -> bool:
        return not self.items

    async def get(self) -> Message:
        while not self.items:
            waiter = self.waiter = asyncio.get_running_loop().create_future()
            try:
                await waiter
            finally:
                if self.waiter is waiter:
                    self.waiter = None
        return self.items.pop(0)


class Gate:
    """What uvicorn's protocol uses of asyncio.Event (`writable`): open unless the transport
    asked to pause writing; waiters are kept only while it is shut."""

    __slots__ = ("open", "waiters")

    def __init__(self) -> None:
        self.open = True
        self.waiters: list[asyncio.Future[None]] = []

    def is_set(self) -> bool:
        return self.open

    def set(self) -> None:
        self.open = True
        waiters, self.waiters = self.waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    def clear(self) -> None:
        self.open = False

    async def wait(self) -> bool:
        if self.open:
            return True
        waiter = asyncio.get_running_loop().create_future()
        self.waiters.append(waiter)
        try:
            await waiter
        finally:
            if waiter in self.waiters:
                self.waiters.remove(waiter)
        return True


UVICORN_ATTRIBUTES = (
    "app", "app_state", "asgi_version", "client", "close_sent", "close_timeout",
    "close_timer", "config", "conn", "connections", "curr_msg_data_type", "default_headers",
    "disconnected", "frames", "handshake_complete", "handshake_initiated",
    "initial_response", "last_ping_rtt", "logger", "loop", "pending_ping_payload",
    "ping_interval", "ping_sent_at", "ping_timeout", "ping_timer", "pong_timer", "queue",
    "read_paused", "request", "response", "root_path", "scheme", "scope", "server", "tasks",
    "transport", "writable",
)


# The last frame made, by the very text object it was made from: a room's fan-out writes
# one text (the same str object, server.rooms.history.FrameTexts) to every viewer with no
# ops of their own, so it is encoded once, not once per socket.
_last_frame: tuple[str | None, bytes] = (None, b"")


def text_frame(text: str) -> bytes:
    """A final, unmasked, uncompressed text frame (RFC 6455 5.2), as websockets makes it."""
    global _last_frame
    last_text, frame = _last_frame
    if text is last_text:  # identity, not equality: a str is immutable, so it is the same
        return frame
    frame = _frame(text)
    _last_frame = (text, frame)
    return frame


def _frame(text: str) -> bytes:
    payload = text.encode()
    size = len(payload)
    if size < 126:
        return bytes((0x81, size)) + payload
    if size < 0x10000:
        return struct.pack("!BBH", 0x81, 126, size) + payload
    return struct.pack("!BBQ", 0x81, 127, size) + payload


# A table socket's scope once accepted: what is left of it is what is still read, its
# type, app, path (with its query string, for uvicorn's log lines) and the client's address.
# The rest (headers, subprotocols, server, scheme, state, ...) is read only before the
# accept, or for an HTTP answer instead of it.
AFTER_ACCEPT = ("type", "app", "path", "query_string", "client")
# ...and headers, empty: a page's socket that reads `ws.url` or (uncached) `ws.headers` after
# its accept reads nothing rather than fails. Shared by every socket, so never to be changed.
NO_HEADERS: list[tuple[bytes, bytes]] = []

Address = tuple[str, int | None]
_LOCAL_ADDRESSES: dict[Address, Address] = {}  # the server's listening addresses

# Seconds a socket refused for a bad frame keeps reading (and dropping) what the client
# still sends before it is closed.
LINGER = 2.0


class AnsweringWebSocketProtocol(WebSocketsSansIOProtocol):
    __slots__ = (*UVICORN_ATTRIBUTES, "lingering")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.queue = Inbox()  # type: ignore[assignment]
        self.writable = Gate()  # type: ignore[assignment]
        self.lingering = False

    def write_texts_now(self, texts: Sequence[str]) -> bool:
        """Write text frames straight onto the transport, in one write, as uvicorn's `send`
        would one by one: True if they went out. Every table frame goes this way: uvicorn's
        send costs a coroutine, a message dict, websockets' Frame and its serializer, 2.4 µs
        a 400-byte frame against 0.4 µs here (not counting the system call). False when
        the frames must take uvicorn's way instead: writing is paused, the socket is not
        open (yet, or any more), or an extension (permessage-deflate, WS_DEFLATE)
        transforms frames."""
        conn = self.conn
        if (not self.writable.is_set() or self.disconnected or self.close_sent
                or not self.handshake_complete or self.initial_response is not None
                or conn.state is not OPEN or conn.extensions
                or conn.expect_continuation_frame):
            return False
        if len(texts) == 1:
            self.transport.write(text_frame(texts[0]))
        else:
            self.transport.write(b"".join(map(text_frame, texts)))
        return True

    def handle_parser_exception(self) -> None:
        """As uvicorn (the app hears of the close, the close frame goes out), with the error
        and bye frames first; then, instead of closing at once, the rest of the refused frame
        is read and dropped until the client hangs up or LINGER seconds pass. Closing a
        socket with unread input sends a reset, which can destroy what the client has not
        read yet: the error, the bye and the close (seen with a 1 MiB frame)."""
        if isinstance(self.conn.parser_exc, PayloadTooBig) and not self.transport.is_closing():
            # Unmasked, uncompressed text frames: valid server frames in any session.
            for text in too_large_texts(self.config.ws_max_size):
                frame = Frame(Opcode.TEXT, text.encode())
                self.transport.write(frame.serialize(mask=False, extensions=[]))
        assert self.conn.close_sent is not None
        close = self.conn.close_sent
        self.queue.put_nowait({"type": "websocket.disconnect", "code": close.code,
                               "reason": close.reason})
        self.transport.write(b"".join(self.conn.data_to_send()))
        self.close_sent = True
        self.lingering = True
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self.transport.resume_reading()
        # uvicorn's own close timer: while it is set, the app's end does not close either.
        self.close_timer = self.loop.call_later(LINGER, self.transport.close)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        # The local address is the same for every socket, the peer's host often: each
        # socket keeps the shared objects rather than copies of its own (~0.2 KiB).
        if self.server is not None:
            self.server = _LOCAL_ADDRESSES.setdefault(self.server, self.server)
        if self.client is not None:
            self.client = (sys.intern(self.client[0]), self.client[1])

    def connection_lost(self, exc: Exception | None) -> None:
        """As uvicorn, and the cycle a refused frame leaves is broken (issue 25.12): the
        connection keeps the exception that stopped its parser, whose traceback holds the
        parser's frame, which holds the connection. A frame too large, badly masked or not
        UTF-8, or a hang-up mid-frame, each left ~15 objects that only the collector's full
        pass could free: with churning sockets the heap grew until one did."""
        super().connection_lost(exc)
        if self.conn.parser_exc is not None:
            self.conn.parser_exc.__traceback__ = None

    def data_received(self, data: bytes) -> None:
        if not self.lingering:
            super().data_received(data)

    def schedule_ping(self) -> None:
        """As uvicorn, on the loop's shared keepalive timers (server/ws/keepalive.py)
        rather than a loop timer of the socket's own."""
        assert self.ping_interval is not None
        delay = max(0.0, self.ping_interval - self.last_ping_rtt)
        self.ping_timer = timers(self.loop).call_later(  # type: ignore[assignment]
            delay, self.send_keepalive_ping)

    def start_keepalive(self) -> None:
        """Called once, as the handshake's answer goes out: the request and the response
        are not read again."""
        super().start_keepalive()
        # websockets' parser keeps the request for the connection's life: empty it. The
        # app's scope has its own copy of the headers, read before the accept (Host,
        # Origin, the cluster's claim) and never after: ~0.7 KiB a socket.
        self.request.headers.clear()
        self.request = self.response = None  # type: ignore[assignment]
        # The same for the scope: only what is still read stays, in a smaller table (a dict
        # shrinks only when cleared): 464 -> 272 bytes, and its containers (headers, state,
        # ...: ~0.5 KiB) go. The scope is the very object the app's frames
        # hold, so it is emptied and refilled, not replaced.
        scope: dict[str, Any] = self.scope  # type: ignore[assignment]
        kept = {key: scope[key] for key in AFTER_ACCEPT if key in scope}
        scope.clear()
        scope.update(kept, headers=NO_HEADERS)


class UpgradingHttpProtocol(HttpToolsProtocol):
    """uvicorn's HTTP protocol, which every socket starts on, leaving no garbage behind when
    it hands the connection over to the websocket protocol, and holding plain HTTP to the
    limits of server/ws/httplimits.py (`limits`, bound by `with_limits`; None: unlimited).

    Its parser holds it (for the callbacks) and it holds its parser, until the connection
    is lost, which it never hears of once upgraded: each table socket left that cycle (and
    the ~15 objects it holds) for the collector's full pass, whose cost grows with the heap
    (see server/memory.py)."""

    limits: ClassVar[HttpLimits | None] = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.counted: str | None = None  # the client address this connection counts under
        self.head_timer: asyncio.TimerHandle | None = None
        self.awaiting_head = True  # no request's head is complete yet, or the last one ended
        self.progress = 0  # heads and messages completed on this connection

    @classmethod
    def with_limits(cls, limits: HttpLimits) -> type[UpgradingHttpProtocol]:
        """This protocol held to `limits` (uvicorn builds each connection's from a class)."""
        return type(cls.__name__, (cls,), {"limits": limits})

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """As uvicorn, and a connection that never sends a byte is closed after uvicorn's
        keep-alive timeout (5 s) as an idle kept-alive one is: uvicorn arms it only after a
        first response, so silent connections stayed open for good (issue 25.9). One past
        the client address's HTTP_PER_ADDRESS is answered 503 too_many_connections and
        closed at once."""
        super().connection_made(transport)
        self.timeout_keep_alive_task = self.loop.call_later(
            self.timeout_keep_alive, self.timeout_keep_alive_handler)
        if self.limits is None or self.client is None:
            return
        admitted = self.limits.admit(self.client[0])
        if admitted is False:
            self.refuse(503, "too_many_connections", TOO_MANY)
        elif admitted:
            self.counted = self.client[0]

    def data_received(self, data: bytes) -> None:
        """As uvicorn; bytes that leave a head unfinished start its deadline (any bytes: a
        client sending only blank lines before a request line is dripping a head too). A
        head that arrives whole in one read, as nearly all do, costs no timer (a loop timer
        armed and cancelled per request: 2-5 us here, ~1% of a small request)."""
        progress = self.progress
        super().data_received(data)
        if (self.awaiting_head and self.progress == progress and self.head_timer is None
                and self.limits is not None and not self.transport.is_closing()):
            self.head_timer = self.loop.call_later(self.limits.head_timeout, self.head_late)

    def on_headers_complete(self) -> None:
        """As uvicorn, and the answer's head goes out with its body, in one write
        (server/ws/headwrite.py says why)."""
        self.awaiting_head = False
        self.progress += 1
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None
        cycle = self.cycle
        super().on_headers_complete()
        if self.cycle is not cycle and self.scope["method"] != "HEAD":  # not an upgrade
            self.cycle.transport = HeadWithBody(self.transport)

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self.awaiting_head = True
        self.progress += 1

    def head_late(self) -> None:
        """HTTP_HEAD_TIMEOUT passed since a head's first byte: 408 slow_head, and the
        connection ends (after the answer to an earlier request still going out, if any)."""
        self.head_timer = None
        if self.transport.is_closing():
            return
        if self.cycle is not None and not self.cycle.response_complete:
            self.cycle.keep_alive = False  # pipelined: it closes once that answer is out
            return
        self.refuse(408, "slow_head", SLOW_HEAD)

    def refuse(self, status: int, code: str, message: str) -> None:
        if self.timeout_keep_alive_task is not None:  # as uvicorn's own closes do
            self.timeout_keep_alive_task.cancel()
            self.timeout_keep_alive_task = None
        self.transport.write(refusal(status, code, message))
        self.transport.close()

    def release(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None
        if self.counted is not None and self.limits is not None:
            self.limits.release(self.counted)
            self.counted = None

    def connection_lost(self, exc: Exception | None) -> None:
        self.release()
        super().connection_lost(exc)

    def handle_websocket_upgrade(self) -> None:
        self.release()  # a table socket from now on: WS_PER_ADDRESS counts it
        super().handle_websocket_upgrade()
        self.parser = None  # type: ignore[assignment]

"""The socket writer: frames go out the moment they are queued, in order; a socket that
cannot take one gets a task that finishes it and goes on; one too slow, or gone, ends the
writer (what is queued is dropped, the reader is told)."""

from __future__ import annotations

import asyncio

import pytest

from server.rooms import Connection
from server.ws.writer import Writer
from tests.ws.sockets import open_socket

pytestmark = pytest.mark.asyncio


class Socket:
    """An ASGI send that takes frames at once, or waits while `open` is cleared."""

    def __init__(self) -> None:
        self.sent: list[dict] = []
        self.open = asyncio.Event()
        self.open.set()
        self.gone = False

    async def send(self, message: dict) -> None:
        await self.open.wait()
        if self.gone:
            raise OSError("client disconnected")
        self.sent.append(message)

    def texts(self) -> list[str]:
        return [m.get("text", m["type"]) for m in self.sent]


def writer(socket: Socket, timeout: float = 10) -> tuple[Connection, Writer, list[str]]:
    conn, ended = Connection(limit=8), []
    return conn, Writer(conn, socket.send, timeout, lambda: ended.append("ended")), ended


async def test_a_frame_goes_out_inside_the_call_that_queues_it() -> None:
    socket = Socket()
    conn, w, ended = writer(socket)
    conn.send("a")
    assert socket.texts() == ["a"] and not conn.outbox and w.task is None
    conn.send("b")
    assert socket.texts() == ["a", "b"] and ended == []


async def test_a_socket_that_waits_gets_the_frames_later_in_order() -> None:
    socket = Socket()
    conn, w, ended = writer(socket)
    socket.open.clear()
    for text in "abc":
        conn.send(text)
    assert socket.texts() == [] and list(conn.outbox) == ["a", "b", "c"]
    socket.open.set()
    await w.flush(5)
    assert socket.texts() == ["a", "b", "c"] and not conn.outbox and ended == []
    conn.send("d")  # and back to writing at once
    assert socket.texts()[-1] == "d"


async def test_the_bye_and_close_go_out_then_the_writer_ends() -> None:
    socket = Socket()
    conn, w, ended = writer(socket)
    conn.close("kicked")
    assert socket.texts() == ['{"type":"bye","reason":"kicked"}', "websocket.close"]
    assert socket.sent[-1]["code"] == 1000 and ended == ["ended"] and w.ended


async def test_a_frame_that_cannot_go_out_in_time_ends_the_writer() -> None:
    socket = Socket()
    conn, w, ended = writer(socket, timeout=0.01)
    socket.open.clear()
    conn.send("a")
    conn.send("b")
    while not w.ended:
        await asyncio.sleep(0.01)
    assert ended == ["ended"] and not conn.outbox and socket.texts() == []


async def test_a_socket_gone_ends_the_writer_and_drops_what_is_queued() -> None:
    socket = Socket()
    conn, w, ended = writer(socket)
    socket.gone = True
    conn.send("a")
    assert ended == ["ended"] and not conn.outbox
    conn.send("b")  # nothing more is tried
    assert socket.texts() == [] and ended == ["ended"]


async def test_a_lagging_reader_keeps_the_frame_in_flight_then_gets_bye_lagging() -> None:
    socket = Socket()
    conn, w, _ = writer(socket)
    socket.open.clear()
    for i in range(9):  # one more than the limit of 8
        conn.send(str(i))
    socket.open.set()
    await w.flush(5)
    assert socket.texts() == ["0", '{"type":"bye","reason":"lagging"}', "websocket.close"]
    assert socket.sent[-1]["code"] == 1008


async def test_frames_queued_while_held_leave_together_on_release() -> None:
    """An action's patch and its ack: one write on a real uvicorn protocol."""
    protocol, transport = await open_socket()
    conn = Connection(limit=8)
    Writer(conn, protocol.send, 10, lambda: None)
    transport.writes = 0
    conn.hold()
    conn.send("patch")
    conn.send("ack")
    assert transport.writes == 0 and list(conn.outbox) == ["patch", "ack"]
    conn.release()
    assert transport.writes == 1 and not conn.outbox
    assert transport.written.endswith(b"\x81\x05patch\x81\x03ack")
    conn.send("next")  # and back to writing at once
    assert transport.writes == 2
    protocol.connection_lost(None)
    protocol.stop_keepalive()


async def test_a_close_queued_while_held_goes_out_after_the_frames_before_it() -> None:
    socket = Socket()
    conn, w, ended = writer(socket)
    conn.hold()
    conn.send("a")
    conn.close("kicked")
    assert socket.texts() == []
    conn.release()
    assert socket.texts() == ["a", '{"type":"bye","reason":"kicked"}', "websocket.close"]
    assert ended == ["ended"]


async def test_a_frame_with_nothing_ahead_is_written_without_queueing() -> None:
    """The fan-out's shortcut (Connection.write): straight onto the transport, one write
    per frame; a paused socket queues it instead, and it follows in order once resumed."""
    protocol, transport = await open_socket()
    conn = Connection(limit=8)
    w = Writer(conn, protocol.send, 10, lambda: None)
    assert conn.write is not None
    queued: list[object] = []
    conn.outbox.append = queued.append  # type: ignore[method-assign]  # sees any queueing
    transport.writes = 0
    conn.send("a")
    assert transport.writes == 1 and queued == [] and transport.written.endswith(b"\x81\x01a")
    del conn.outbox.append
    protocol.pause_writing()
    conn.send("b")
    conn.send("c")
    assert transport.writes == 1 and list(conn.outbox) == ["b", "c"]
    protocol.resume_writing()
    await w.flush(5)
    assert not conn.outbox and transport.written.endswith(b"\x81\x01b\x81\x01c")
    w.stop()
    assert conn.write is None and conn.wakeup is None
    protocol.connection_lost(None)
    protocol.stop_keepalive()


async def test_a_frame_for_a_socket_gone_ends_the_writer_by_the_shortcut_too() -> None:
    protocol, transport = await open_socket()
    conn, ended = Connection(limit=8), []
    w = Writer(conn, protocol.send, 10, lambda: ended.append("ended"))

    def gone(data: bytes) -> None:
        raise OSError("client disconnected")

    transport.write = gone  # type: ignore[method-assign]
    conn.send("a")
    assert ended == ["ended"] and w.ended and not conn.outbox
    protocol.connection_lost(None)
    protocol.stop_keepalive()

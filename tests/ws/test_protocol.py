"""The websocket protocol's lean parts behave like the asyncio pieces they replace: the
inbox hands events over in order and wakes its one reader, a reader cancelled while
waiting loses nothing; the gate lets a send through at once unless writing is paused; a
frame written straight onto the transport is the one websockets would have written."""

from __future__ import annotations

import asyncio
import sys

import pytest

from server.ws.protocol import AFTER_ACCEPT, NO_HEADERS, Gate, Inbox
from tests.ws.sockets import UPGRADE, Transport, config, open_socket

pytestmark = pytest.mark.asyncio


async def test_the_inbox_hands_events_over_in_order_and_wakes_its_reader():
    inbox = Inbox()
    reader = asyncio.ensure_future(inbox.get())
    await asyncio.sleep(0)
    assert not reader.done()
    inbox.put_nowait({"type": "websocket.connect"})
    inbox.put_nowait({"type": "websocket.receive", "text": "a"})
    assert await reader == {"type": "websocket.connect"}
    assert not inbox.empty()
    assert await inbox.get() == {"type": "websocket.receive", "text": "a"}
    assert inbox.empty()


async def test_a_reader_cancelled_while_waiting_loses_nothing():
    inbox = Inbox()
    reader = asyncio.ensure_future(inbox.get())
    await asyncio.sleep(0)
    reader.cancel()
    with pytest.raises(asyncio.CancelledError):
        await reader
    assert inbox.waiter is None
    inbox.put_nowait({"type": "websocket.disconnect", "code": 1000})
    assert await inbox.get() == {"type": "websocket.disconnect", "code": 1000}


async def test_the_gate_waits_only_while_writing_is_paused():
    gate = Gate()
    assert gate.is_set() and await gate.wait()  # open: no wait at all
    gate.clear()
    waiting = [asyncio.ensure_future(gate.wait()) for _ in range(2)]
    await asyncio.sleep(0)
    assert not any(w.done() for w in waiting)
    gate.set()
    assert await asyncio.gather(*waiting) == [True, True]
    assert gate.waiters == []


async def test_a_socket_keeps_uvicorns_attributes_in_slots_not_a_dict_of_its_own():
    """uvicorn's per-connection attributes all land in the subclass's slots (a uvicorn that
    adds one would put it in a dict again, ~1.5 KiB a socket: add it to the list)."""
    protocol, transport = await open_socket()
    assert transport.written.startswith(b"HTTP/1.1 101")
    assert vars(protocol) == {}
    assert protocol.request is None and protocol.response is None  # dropped once answered
    protocol.connection_lost(None)
    protocol.stop_keepalive()


async def test_accepted_sockets_keep_only_what_is_read_later_and_share_addresses():
    """What is read only before the accept leaves the scope, which shrinks to a smaller
    table (~0.6 KiB a socket with its containers); the local address and the
    peer's host name are one object each."""
    first, _ = await open_socket()
    other, _ = await open_socket()
    for protocol in (first, other):
        assert set(protocol.scope) <= {*AFTER_ACCEPT, "headers"}
        assert {"type", "path", "client"} <= set(protocol.scope)
        # Headers read after the accept (a page's `ws.url`) are none, not a KeyError.
        assert protocol.scope["headers"] is NO_HEADERS == []
        kept = dict.fromkeys((*AFTER_ACCEPT, "headers"))
        assert sys.getsizeof(protocol.scope) <= sys.getsizeof(kept)
    assert other.server is first.server
    assert other.client[0] is first.client[0]  # the same host's name, once
    first.connection_lost(None)
    other.connection_lost(None)


async def test_a_frame_written_straight_is_the_frame_websockets_would_write():
    """Every payload length class of RFC 6455 5.2 (7-bit, 16-bit, 64-bit), in UTF-8."""
    from websockets.frames import Frame, Opcode

    protocol, transport = await open_socket()
    for text in ("", "é" * 62, "x" * 125, "x" * 126, "ก" * 21845, "x" * 65535, "x" * 65536):
        transport.written = b""
        assert protocol.write_texts_now([text])
        expected = Frame(Opcode.TEXT, text.encode()).serialize(mask=False, extensions=[])
        assert transport.written == expected
    transport.written, transport.writes = b"", 0
    assert protocol.write_texts_now(["a", "é" * 200]) and transport.writes == 1
    assert transport.written == b"".join(
        Frame(Opcode.TEXT, text.encode()).serialize(mask=False, extensions=[])
        for text in ("a", "é" * 200))
    protocol.connection_lost(None)
    protocol.stop_keepalive()


async def test_one_text_sent_to_many_sockets_is_framed_once_yet_each_text_is_its_own_frame():
    """A fan-out's shared text (one str object) is encoded once; a different text, even an
    equal one built apart, or one in between, always gets its own frame."""
    from websockets.frames import Frame, Opcode

    def frame(text: str) -> bytes:
        return Frame(Opcode.TEXT, text.encode()).serialize(mask=False, extensions=[])

    first, second = await open_socket(), await open_socket()
    shared = "".join(["{", '"type":"patch"', "}"])
    for protocol, transport in (first, second, first):
        transport.written = b""
        assert protocol.write_texts_now([shared]) and transport.written == frame(shared)
    for text in ("", "a", "".join(["{", '"type":"patch"', "}"]), "é" * 70, ""):
        first[1].written = b""
        assert first[0].write_texts_now([text]) and first[1].written == frame(text)
    for protocol, _ in (first, second):
        protocol.connection_lost(None)
        protocol.stop_keepalive()


async def test_a_frame_takes_uvicorns_way_when_paused_closing_or_compressed():
    protocol, transport = await open_socket()
    transport.written = b""
    protocol.writable.clear()  # the transport asked to pause writing
    assert not protocol.write_texts_now(["a"])
    protocol.writable.set()
    assert protocol.write_texts_now(["a"])
    await protocol.send({"type": "websocket.close", "code": 1000})
    transport.written = b""
    assert not protocol.write_texts_now(["after the close"]) and transport.written == b""
    protocol.connection_lost(None)
    protocol.stop_keepalive()

    compressed, transport = await open_socket(deflate=True)
    assert compressed.conn.extensions  # permessage-deflate was agreed
    transport.written = b""
    assert not compressed.write_texts_now(["a"]) and transport.written == b""
    compressed.connection_lost(None)
    compressed.stop_keepalive()


async def test_the_http_protocol_a_socket_started_on_is_freed_once_upgraded():
    """Without a collector pass: it leaves no reference cycle (its parser's) behind."""
    import gc
    import weakref

    from uvicorn.server import ServerState

    from server.ws.protocol import AnsweringWebSocketProtocol, UpgradingHttpProtocol

    accepted = asyncio.Event()
    http = UpgradingHttpProtocol(config(accepted), ServerState(), {})
    transport = Transport()
    http.connection_made(transport)
    gc.disable()
    try:
        http.data_received(UPGRADE + b"\r\n")
        await asyncio.wait_for(accepted.wait(), 5)
        assert isinstance(transport.protocol, AnsweringWebSocketProtocol)
        gone = weakref.ref(http)
        del http
        assert gone() is None
    finally:
        gc.enable()
    transport.protocol.connection_lost(None)
    transport.protocol.stop_keepalive()

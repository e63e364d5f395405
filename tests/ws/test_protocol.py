"""The websocket protocol's lean parts behave like the asyncio pieces they replace: the
inbox hands events over in order and wakes its one reader, a reader cancelled while
waiting loses nothing; the gate lets a send through at once unless writing is paused."""

from __future__ import annotations

import asyncio

import pytest

from server.ws.protocol import Gate, Inbox

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

"""Keepalive pings share one loop timer: a deadline runs once its slot ends, never before,
not at all once cancelled, and many sockets' deadlines cost the loop one timer."""

from __future__ import annotations

import asyncio

import pytest

from server.ws.keepalive import Timers, timers
from tests.ws.sockets import open_socket

pytestmark = pytest.mark.asyncio

SLOT = 0.05


async def test_a_deadline_runs_once_its_slot_is_over_and_not_before():
    loop = asyncio.get_running_loop()
    wheel = Timers(loop, SLOT)
    ran: list[float] = []
    start = loop.time()
    wheel.call_later(0.12, lambda: ran.append(loop.time()))
    await asyncio.sleep(0.08)
    assert ran == []
    await asyncio.sleep(0.2)
    assert len(ran) == 1
    assert 0.12 - 0.01 <= ran[0] - start <= 0.12 + SLOT + 0.1
    assert wheel.slots == {} and wheel.handle is None  # nothing left armed


async def test_a_cancelled_deadline_does_not_run_and_lets_its_callback_go():
    loop = asyncio.get_running_loop()
    wheel = Timers(loop, SLOT)
    ran: list[str] = []
    ticket = wheel.call_later(0.05, lambda: ran.append("cancelled"))
    wheel.call_later(0.05, lambda: ran.append("kept"))
    ticket.cancel()
    assert ticket.callback is None
    await asyncio.sleep(0.2)
    assert ran == ["kept"]


async def test_many_deadlines_in_order_on_one_loop_timer():
    loop = asyncio.get_running_loop()
    wheel = Timers(loop, SLOT)
    ran: list[int] = []
    wheel.call_later(0.2, lambda: ran.append(3))
    handle = wheel.handle
    wheel.call_later(0.02, lambda: ran.append(1))  # sooner: the one timer moves up
    assert wheel.handle is not handle and handle is not None and handle.cancelled()
    handle = wheel.handle
    for _ in range(100):
        wheel.call_later(0.1, lambda: ran.append(2))
    assert wheel.handle is handle  # later deadlines add no timer
    await asyncio.sleep(0.4)
    assert ran == [1] + [2] * 100 + [3]


async def test_a_failing_callback_is_reported_and_the_others_still_run():
    loop = asyncio.get_running_loop()
    reported: list[dict] = []
    loop.set_exception_handler(lambda _loop, context: reported.append(context))
    try:
        wheel = Timers(loop, SLOT)
        ran: list[str] = []
        wheel.call_later(0.01, lambda: 1 / 0)
        wheel.call_later(0.01, lambda: ran.append("after"))
        await asyncio.sleep(0.15)
    finally:
        loop.set_exception_handler(None)
    assert ran == ["after"]
    assert isinstance(reported[0]["exception"], ZeroDivisionError)


async def test_a_socket_pings_on_the_shared_timers_and_stops_with_its_connection():
    from websockets.frames import Frame, Opcode

    protocol, transport = await open_socket()
    wheel = timers(asyncio.get_running_loop())
    ticket = protocol.ping_timer
    assert ticket is not None and any(ticket in slot for slot in wheel.slots.values())
    assert ticket.callback == protocol.send_keepalive_ping
    ticket.callback()  # the interval is over: the ping goes out, its pong is awaited
    payload = protocol.pending_ping_payload
    assert payload is not None and transport.written.endswith(b"\x89\x04" + payload)
    assert protocol.ping_timer is None
    protocol.data_received(Frame(Opcode.PONG, payload).serialize(mask=True, extensions=[]))
    ticket = protocol.ping_timer  # the pong came: the next ping is on the shared timers
    assert ticket is not None and any(ticket in slot for slot in wheel.slots.values())
    protocol.connection_lost(None)
    assert protocol.ping_timer is None and ticket.callback is None  # cancelled, let go

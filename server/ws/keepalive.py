"""One loop timer for the keepalive pings of every table socket, not one per socket.

uvicorn schedules each websocket's next ping with `loop.call_later`: under uvloop a
TimerHandle, its libuv timer and a bound method, ~0.6 KiB a socket for as long as it
lives, 8 sockets a room (bench/memory.py). A ping every 20 s (uvicorn's
ws_ping_interval) needs no better than a second's precision, so `Timers` files the
deadlines of every socket on a loop into one-second slots behind a single loop timer: a
deadline costs a `Ticket` and its callback, and runs at most one slot late.
"""

from __future__ import annotations

import asyncio
import math
import weakref
from collections.abc import Callable

RESOLUTION = 1.0  # seconds per slot
EARLY = 0.005  # a loop may run a timer a little before its time: still that slot's


class Ticket:
    """A deadline in `Timers`: `cancel` as uvicorn cancels its timer handles."""

    __slots__ = ("callback",)

    def __init__(self, callback: Callable[[], object]) -> None:
        self.callback: Callable[[], object] | None = callback

    def cancel(self) -> None:
        self.callback = None


class Timers:
    """Callbacks due at a slot's end (a multiple of `resolution` on the loop's clock)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, resolution: float = RESOLUTION) -> None:
        self.loop = loop
        self.resolution = resolution
        self.slots: dict[int, list[Ticket]] = {}
        self.handle: asyncio.TimerHandle | None = None
        self.armed_for: int | None = None

    def call_later(self, delay: float, callback: Callable[[], object]) -> Ticket:
        slot = math.ceil((self.loop.time() + delay) / self.resolution)
        ticket = Ticket(callback)
        tickets = self.slots.get(slot)
        if tickets is None:
            tickets = self.slots[slot] = []
        tickets.append(ticket)
        if self.armed_for is None or slot < self.armed_for:
            self._arm(slot)
        return ticket

    def _arm(self, slot: int) -> None:
        if self.handle is not None:
            self.handle.cancel()
        self.armed_for = slot
        self.handle = self.loop.call_at(slot * self.resolution, self._run)

    def _run(self) -> None:
        self.handle = self.armed_for = None
        now = self.loop.time() + EARLY
        for slot in sorted(s for s in self.slots if s * self.resolution <= now):
            for ticket in self.slots.pop(slot):
                callback, ticket.callback = ticket.callback, None
                if callback is None:  # cancelled
                    continue
                try:
                    callback()
                except Exception as exc:  # as the loop itself reports a failed callback
                    self.loop.call_exception_handler({
                        "message": "keepalive callback failed", "exception": exc})
        if self.slots:
            self._arm(min(self.slots))


_timers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Timers] = \
    weakref.WeakKeyDictionary()


def timers(loop: asyncio.AbstractEventLoop) -> Timers:
    """The keepalive timers of `loop`."""
    found = _timers.get(loop)
    if found is None:
        found = _timers[loop] = Timers(loop)
    return found

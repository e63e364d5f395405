"""Presence: sockets attach and detach, spectators come and go in crowds."""

from __future__ import annotations

import asyncio
import time

from .. import chat, timeouts
from ..connection import Connection
from ..errors import RoomError
from ..events import Presence
from .versions import Versions


class Presences(Versions):
    """Who is connected: seats' sockets and spectators."""

    __slots__ = ()

    async def attach(self, conn: Connection, token: str | None, resume: int | None) -> None:
        """Start sending to `conn` (a seat's if `token` is its seat token, else a spectator's):
        the missed patches if `resume` is recent enough, else a snapshot."""
        async with self.lock:
            self.check_open()
            seat = None if token is None else self.seat_of(token)
            if token is not None and seat is None:
                raise RoomError("forbidden", "unknown seat token; hello without one to watch", 403)
            conn.seat, conn.attached = seat, True
            if seat is None:
                if len(self.spectators) >= self.max_spectators:
                    conn.attached = False
                    raise RoomError("spectators_full", f"this table already has "
                                    f"{self.max_spectators} spectators; try again later", 503)
                self.spectators.add(conn)
                event: Presence | None = None
            else:
                old = self.seats[seat].conn
                if old is not None:
                    old.attached = False
                    old.close("replaced")
                # The player is back: a bot standing in stops before its next action,
                # unless it is finishing a turn that timed out (then at that turn's end).
                self.seats[seat].conn = conn
                if not timeouts.finishing(self, seat):
                    self.seats[seat].stand_in = None
                event = {"type": "presence", "seat": seat, "connected": True}
            self._catch_up(conn, resume)
            chat.send_recent(self, conn)
            if event is None:
                self._spectators_changed()
            else:
                self.commit([event])
        if event is not None:
            await self.notify([event])

    async def detach(self, conn: Connection) -> None:
        event: Presence | None = None
        async with self.lock:
            if not conn.attached:
                return
            conn.attached = False
            if conn.seat is None:
                self.spectators.discard(conn)
                self._spectators_changed()
            elif self.seats[conn.seat].conn is conn:
                self.seats[conn.seat].conn = None
                event = {"type": "presence", "seat": conn.seat, "connected": False}
                self.commit([event])
        if event is not None:
            await self.notify([event])

    def _spectators_changed(self) -> None:
        """Publish the spectator count now, or at most presence_interval after the last
        time (call with the lock held)."""
        if self._presence_flush is not None:
            return  # already due: it will publish the count as it is then
        wait = self._presence_at + self.presence_interval - time.monotonic()
        if wait <= 0:
            self._publish_spectators()
        else:
            self._presence_flush = asyncio.create_task(self._publish_spectators_after(wait))

    def _publish_spectators(self) -> None:
        self._presence_at = time.monotonic()
        self.commit([{"type": "spectators", "count": len(self.spectators)}])

    async def _publish_spectators_after(self, wait: float) -> None:
        await asyncio.sleep(wait)
        async with self.lock:
            self._presence_flush = None
            self._publish_spectators()

    def close_all(self, reason: str, code: int = 1000) -> None:
        if self._presence_flush is not None:
            self._presence_flush.cancel()
            self._presence_flush = None
        for conn in list(self.connections()):
            conn.attached = False
            conn.close(reason, code)
        self.spectators.clear()
        for seat in self.seats:
            seat.conn = None

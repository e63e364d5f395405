"""Playing: a seat's action checked, journaled, committed and heard."""

from __future__ import annotations

import logging
from typing import Self

from server.rules import Action, RuleError, apply, is_over

from .. import chat, stages, timeouts
from ..errors import RoomError
from .lifecycle import Lifecycle

log = logging.getLogger(__name__)


class Room(Lifecycle):
    """A room: seats, viewers, versions and per-viewer diffs around one game. No rules here."""

    __slots__ = ()

    async def act(
        self: Self, seat: int, action: Action, v: int, *, bot: str | None = None,
    ) -> int:
        """Apply a seat's action; returns the new version. Raises RoomError, changing nothing.

        `bot`: the level of the bot acting for the seat; refused as stale if that bot no
        longer plays it (its player came back, or the seat was freed)."""
        async with self.lock:
            self.check_open()
            game = self.game
            if game is None:
                raise RoomError("not_started", "the game has not started yet")
            if v < self.game_v or v > self.v:
                raise RoomError("stale", f"the game changed since version {v}; now {self.v}")
            if bot is not None and self.seats[seat].played_by != bot:
                raise RoomError("stale", f"a {bot} bot no longer plays seat {seat}")
            if bot is None:
                timeouts.check_act(self, seat)
            try:
                events = apply(game, action, seat)
            except RuleError as e:
                raise RoomError(e.code, e.message) from None
            stages.applied()
            try:
                await self.journal.accepted(self, game.version, action, seat)
            except Exception as exc:
                # Rare (the database journal falls back to a local file): rather than copy
                # the game before every action, rebuild it from the accepted actions.
                # An unwritable disk or database (OSError) is logged by the journal, once.
                (log.debug if isinstance(exc, OSError) else log.exception)(
                    "journal failed; action rolled back in room %s",
                    self.display_code, extra={"room": self.display_code})
                self.game = self.replay(self.actions)
                raise RoomError("unavailable", "the action could not be saved", 503) from None
            stages.durable()
            self.actions.append(seat, action)
            if bot is None:
                timeouts.acted(self, seat)
            finished = is_over(game)
            if finished:
                self.finish()
            self.commit(events, game_changed=True)
            version = self.v
            self.action_versions.append(version)
            await self.save_clock()
            if finished:
                await self.tell_journal("finished")
                for conn in self.connections():  # the spectators' channel opens to players
                    if conn.seat is not None:
                        chat.send_recent(self, conn)
        await self.notify(events)
        return version

    async def save_clock(self) -> None:
        """Journal the clock if a new turn began (call under the lock, after a commit)."""
        if self.clock_dirty:
            self.clock_dirty = False
            await timeouts.save(self)

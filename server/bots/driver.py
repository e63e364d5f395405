"""Bots at live tables: whenever a bot is to act in a playing room, ask the pool and act.

A room listener (Room.listeners) wakes the driver after the start, each accepted action and
each seat's connect or disconnect. Each room gets at most one task, which decides for
whoever is to act while that is a bot, then ends:

- a seat with a bot plays through the pool, with the seat's own view only (its legal
  actions, never the deck order), at least BOT_DELAY after the turn came to it;
- a player's seat disconnected for SEAT_GRACE (room clock) gets a TAKEOVER_LEVEL bot
  standing in when it is their turn; it plays until they connect again, and stops before
  its next action then (Room.attach ends the stand-in; Room.act(bot=...) refuses it).

A result that no longer fits the room (someone acted, the seat changed hands) is dropped
and asked again. Errors are logged and retried after a growing pause; they never reach the
room. Finished, expired and closed rooms end their tasks.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from server.config import Settings
from server.rooms import PLAYING, Event, Room, RoomError, RoomManager, stand_in
from server.rules import Action, GameView, is_over

from .levels import LEVELS

log = logging.getLogger(__name__)

GRACE_CHECK = 1.0  # seconds between looks at the room clock while a player's grace runs
RETRY_FIRST, RETRY_MAX = 0.5, 30.0  # pause after a failed decision, doubling to the max


class Chooser(Protocol):
    async def choose(
        self, level: str, view: GameView, seed: int, budget: float, key: str | None = None
    ) -> Action: ...


@dataclass(frozen=True, slots=True)
class Turn:
    """A bot is to act: `played_by` as the seat shows it, `level` the bot that thinks."""

    seat: int
    played_by: str
    level: str


@dataclass(frozen=True, slots=True)
class Grace:
    """A player is away on their turn: a bot stands in after `left` more seconds."""

    seat: int
    left: float


@dataclass(slots=True)
class Run:
    task: asyncio.Task[None] | None = None
    nudge: asyncio.Event = field(default_factory=asyncio.Event)
    acting: bool = False  # inside Room.act: never cancelled there


def decision_seed(room: Room, seat: int) -> int:
    """The bot's RNG seed for this position: reproducible, unrelated to the deck."""
    text = f"{room.code}:{len(room.actions)}:{seat}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


class BotDriver:
    """Plays the bot seats (and stands in for away players) of the manager's rooms."""

    def __init__(self, pool: Chooser, settings: Settings, manager: RoomManager) -> None:
        self.pool = pool
        self.settings = settings
        self.manager = manager
        self._runs: dict[str, Run] = {}
        self._closed = False
        self._unknown: set[str] = set()

    # --- the room listener ---------------------------------------------------------------

    async def __call__(self, room: Room, events: Sequence[Event]) -> None:
        self.wake(room)

    def wake(self, room: Room) -> None:
        """Look at `room` again soon: start its task, or nudge the running one."""
        if self._closed:
            return
        run = self._runs.get(room.code)
        if run is not None and run.task is not None and not run.task.done():
            run.nudge.set()
            return
        if self.next_up(room) is None:  # a person is to act: no task for every action
            return
        run = self._runs[room.code] = Run()
        run.task = asyncio.create_task(self._drive(room, run), name=f"bots:{room.code}")

    def running(self) -> set[str]:
        """The codes of the rooms whose task is alive (waiting, thinking or acting)."""
        return {code for code, run in self._runs.items()
                if run.task is not None and not run.task.done()}

    async def stop(self) -> None:
        """Act no more: end every task (an action being applied is let finish) and start
        none. A server shutting down calls this before saying bye to the players, so that
        no move (nor a game's end) happens that nobody is left to see."""
        self._closed = True
        tasks = [run.task for run in self._runs.values() if run.task is not None]
        for run in self._runs.values():
            run.nudge.set()
            if run.task is not None and not run.acting:
                run.task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def close(self) -> None:
        """stop(), then stop the pool's workers."""
        await self.stop()
        close = getattr(self.pool, "close", None)
        if close is not None:
            await asyncio.to_thread(close)

    # --- who is to act -------------------------------------------------------------------

    def level(self, name: str) -> str:
        """The bot that thinks for a seat labelled `name` (unknown labels: TAKEOVER_LEVEL)."""
        if name in LEVELS:
            return name
        if name not in self._unknown:
            self._unknown.add(name)
            log.warning("no bot level %r; a %s bot plays it", name, self.settings.TAKEOVER_LEVEL)
        return self.settings.TAKEOVER_LEVEL

    def next_up(self, room: Room) -> Turn | Grace | None:
        """What the driver should do for `room` now: a bot's turn, a grace to wait out,
        or nothing (a person is to act, or the game is not being played)."""
        if self._closed or room.status != PLAYING or room.game is None:
            return None
        if is_over(room.game) or self.manager.rooms.get(room.code) is not room:
            return None
        seat = room.seats[room.game.current]
        if seat.played_by is not None:
            return Turn(seat.index, seat.played_by, self.level(seat.played_by))
        if seat.token_hash is None or seat.conn is not None or seat.away_since is None:
            return None
        return Grace(seat.index, seat.away_since + self.settings.SEAT_GRACE - room.clock())

    # --- the room's task -----------------------------------------------------------------

    async def _drive(self, room: Room, run: Run) -> None:
        failures = 0
        try:
            while (up := self.next_up(room)) is not None:
                if isinstance(up, Grace):
                    if up.left > 0:
                        run.nudge.clear()
                        with contextlib.suppress(TimeoutError):
                            await asyncio.wait_for(run.nudge.wait(), min(up.left, GRACE_CHECK))
                    else:
                        await stand_in(room, up.seat, self.settings.TAKEOVER_LEVEL)
                    continue
                try:
                    await self._decide(room, run, up)
                    failures = 0
                except Exception:
                    failures += 1
                    pause = min(RETRY_MAX, RETRY_FIRST * 2 ** (failures - 1))
                    log.exception("bot for seat %d of room %s failed (%d in a row); again in "
                                  "%.1f s", up.seat, room.code, failures, pause)
                    await asyncio.sleep(pause)
        finally:
            if self._runs.get(room.code) is run:
                del self._runs[room.code]

    async def _decide(self, room: Room, run: Run, turn: Turn) -> None:
        """One decision: think, wait out the delay, act if the room is still as it was."""
        loop = asyncio.get_running_loop()
        started, v, game_v = loop.time(), room.v, room.game_v
        view = room.view(turn.seat)["game"]
        assert view is not None  # a bot's turn: the game is on
        action = await self.pool.choose(
            turn.level, view, decision_seed(room, turn.seat), self.settings.BOT_BUDGET,
            key=f"{room.code}:{turn.seat}",
        )
        pause = self.settings.BOT_DELAY - (loop.time() - started)
        if pause > 0:
            await asyncio.sleep(pause)
        if room.game_v != game_v or self.next_up(room) != turn:
            return  # stale: the caller asks again about the room as it is now
        run.acting = True
        try:
            await room.act(turn.seat, action, v, bot=turn.played_by)
        except RoomError as e:
            if e.code != "stale":
                raise
        finally:
            run.acting = False

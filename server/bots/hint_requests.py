"""A hint asked for by a seat, on the event loop: `Hints` (one per app, next to the bot
driver) takes the request: refuses it with a coded RoomError (hints off, a spectator, not
the seat's turn, too fast, too many in flight on the server or from the client's address,
nothing to suggest), asks the pool (behind every bot move: a hint never holds up a bot)
for hint.py's `suggest`, records the hint in the room's talk log (journaled like a timeout,
stored with the game, shown by the replay, never sent to anyone else) and returns it. It
never changes the game.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from typing import Any, Protocol

from server.rooms import PLAYING, Room, RoomError
from server.rooms.chat import HINTS_MAX
from server.rooms.ratelimit import RateLimit
from server.rules import OVER

from .hint import hint_seed, suggest
from .pool import HINT, Late

RATE, WINDOW = 5, 60.0  # hints per seat per window (seconds)


class Runner(Protocol):
    async def call(self, fn: Any, *args: Any, key: str | None = None,
                   priority: int = ...) -> Any: ...


class Hints:
    """Hints for the rooms that allow them: refusals, the pool, the record.

    Hints wait behind bot moves for the same workers (the pool's HINT priority), so what
    one client can queue is capped: `in_flight` hints asked and not yet answered on the
    whole server, `per_address` of them from one client address (HINTS_IN_FLIGHT,
    HINTS_PER_ADDRESS); past either a hint is refused `hint_busy`, as is one whose
    deadline (BOT_DEADLINE, from the request) passed before a worker could begin it."""

    def __init__(self, pool: Runner | None, work: float, in_flight: int, per_address: int,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.pool = pool  # None: a server without bot workers gives no hints
        self.work = work  # the share of the expert's work (BOT_BUDGET)
        self.in_flight = in_flight
        self.per_address = per_address
        self._thinking: set[tuple[str, int]] = set()
        self._by_address: Counter[str] = Counter()
        self._rate = RateLimit(RATE, WINDOW, clock)

    def check(self, room: Room, seat: int | None) -> int:
        """The seat that may have a hint now, or RoomError with the reason it may not."""
        if not room.options.hints or self.pool is None:
            raise RoomError("hints_off", "this room does not allow hints", 409)
        if seat is None:
            raise RoomError("forbidden", "spectators cannot ask for hints", 403)
        game = room.game
        if room.status != PLAYING or game is None or game.phase == OVER:
            raise RoomError("no_hint", "the game is not being played", 409)
        if game.current != seat:
            raise RoomError("not_your_turn", "a hint is for the seat whose turn it is", 409)
        if room.seats[seat].played_by is not None:
            raise RoomError("no_hint", "a bot is playing this turn for the seat", 409)
        return seat

    def _room_for(self, address: str) -> None:
        """RoomError `hint_busy` if the server, or this client address, has its hints in
        flight already."""
        if len(self._thinking) >= self.in_flight:
            raise RoomError("hint_busy", "the server is thinking of too many hints; ask "
                            "again in a moment", 503)
        if self._by_address[address] >= self.per_address:
            raise RoomError("hint_busy", f"at most {self.per_address} hints at a time from "
                            "one address; ask again once they are answered", 503)

    async def ask(self, room: Room, seat: int | None,
                  address: str | None = None) -> dict[str, Any]:
        """A hint for `seat` in `room`, asked from the client `address`, recorded in its
        talk log; RoomError if refused."""
        seat = self.check(room, seat)
        key = (room.code, seat)
        if key in self._thinking:
            raise RoomError("hint_slow", "one hint at a time, at most 5 a minute", 429)
        client = address or ""
        self._room_for(client)
        if not self._rate.hit(f"{room.code}:{seat}"):
            raise RoomError("hint_slow", "one hint at a time, at most 5 a minute", 429)
        if sum(1 for i in room.talk.items if i.get("kind") == "hint") >= HINTS_MAX:
            raise RoomError("hint_slow", f"a game gives at most {HINTS_MAX} hints", 429)
        view = room.view(seat)["game"]
        assert view is not None  # check() refused a room without a game on
        if not view["legal"]:
            raise RoomError("no_hint", "there is no legal action to suggest", 409)
        played, game_v = len(room.actions), room.game_v
        assert self.pool is not None
        self._thinking.add(key)
        self._by_address[client] += 1
        try:
            hint = await self.pool.call(suggest, view, hint_seed(room.code, played, seat),
                                        self.work, key=f"{room.code}:{seat}", priority=HINT)
        except Late:
            raise RoomError("hint_busy", "the bots were too busy to think of it in time; "
                            "ask again", 503) from None
        finally:
            self._thinking.discard(key)
            self._by_address[client] -= 1
            if not self._by_address[client]:
                del self._by_address[client]
        if room.game_v != game_v:
            raise RoomError("stale", "the game moved on while the hint was thought", 409)
        item = {"kind": "hint", "seat": seat, "action": hint["action"], "path": hint["path"],
                "why": hint["why"], "after": played, "at": round(room.clock() * 1000)}
        await room.note_talk(room.talk.add(item))
        return {**hint, "after": played}

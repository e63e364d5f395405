"""The turn clock: a time per turn plus a bank per seat. Pure state, no asyncio, no rules.

Times are counted on the room's injected clock (seconds, monotonic) and kept in whole
milliseconds. A turn is whatever the room calls a turn key (the game's turn number and
the seat to act): the turn time is spent first, then the seat's bank. The clock runs
only while a person plays the seat to act; a bot (a bot seat, or a stand-in) plays on its
own delay, so the clock stops meanwhile. Once a turn has timed out the clock stays stopped
for the rest of that turn: the stand-in finishes it.

Nothing here knows the wall clock: a restored clock (`load`) starts again from the
remaining times it was saved with, so time the server was down costs nobody anything, and
it is held until the player to act is connected again (or the turn passes): the seconds a
browser needs to reconnect after a restart are not theirs to lose.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

TURN_MIN, TURN_MAX = 10, 600  # seconds per turn (real time)
BANK_MIN, BANK_MAX = 0, 3600  # seconds of bank per seat (real time)
HOUR, DAY = 3600, 86400
# Turn-based rooms (a game over days): hours to days per move, a bank of up to a month.
TB_TURN_MIN, TB_TURN_MAX = HOUR, 14 * DAY
TB_BANK_MIN, TB_BANK_MAX = 0, 30 * DAY
REALTIME, TURN_BASED = "realtime", "turn_based"
MODES = (REALTIME, TURN_BASED)
AWAY_AFTER = 3  # timeouts in a row after which the seat counts as away
WARN_MS = 10_000  # the table warns the player in their last 10 seconds

Key = tuple[int, int]  # (game turn, seat to act)


class ClockOptionError(ValueError):
    pass


def mode_bounds(mode: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """(turn, bank) bounds in seconds of a clock in this mode."""
    return ((TURN_MIN, TURN_MAX), (BANK_MIN, BANK_MAX)) if mode == REALTIME else (
        (TB_TURN_MIN, TB_TURN_MAX), (TB_BANK_MIN, TB_BANK_MAX))


@dataclass(frozen=True, slots=True)
class ClockOption:
    """What the host chose: seconds per turn and seconds of bank per seat."""

    turn: int = field(metadata={
        "ge": TURN_MIN, "le": TB_TURN_MAX,
        "description": f"seconds per turn: {TURN_MIN}..{TURN_MAX} in real time, "
                       f"{TB_TURN_MIN}..{TB_TURN_MAX} (1 hour..14 days) turn-based"})
    bank: int = field(metadata={
        "ge": BANK_MIN, "le": TB_BANK_MAX,
        "description": f"seconds of bank per seat: {BANK_MIN}..{BANK_MAX} in real time, "
                       f"{TB_BANK_MIN}..{TB_BANK_MAX} (up to 30 days) turn-based"})

    def __post_init__(self) -> None:
        if type(self.turn) is not int or not TURN_MIN <= self.turn <= TB_TURN_MAX:
            raise ClockOptionError(f"turn time must be {TURN_MIN}..{TB_TURN_MAX} seconds")
        if type(self.bank) is not int or not BANK_MIN <= self.bank <= TB_BANK_MAX:
            raise ClockOptionError(f"bank must be {BANK_MIN}..{TB_BANK_MAX} seconds")

    def check(self, mode: str) -> None:
        """The bounds of the room's mode: seconds in real time, hours to days turn-based."""
        turn, bank = mode_bounds(mode)
        if not turn[0] <= self.turn <= turn[1]:
            raise ClockOptionError(f"a {mode} turn time must be {turn[0]}..{turn[1]} seconds")
        if not bank[0] <= self.bank <= bank[1]:
            raise ClockOptionError(f"a {mode} bank must be {bank[0]}..{bank[1]} seconds")

    def to_dict(self) -> dict[str, int]:
        return {"turn": self.turn, "bank": self.bank}

    @classmethod
    def from_value(cls, value: Any) -> ClockOption | None:
        """None (no clock), a ClockOption, or its dict form {"turn": s, "bank": s}."""
        if value is None or isinstance(value, ClockOption):
            return value
        if not isinstance(value, dict) or set(value) != {"turn", "bank"}:
            raise ClockOptionError('a clock is {"turn": seconds, "bank": seconds} or null')
        return cls(value["turn"], value["bank"])


class TurnClock:
    def __init__(self, option: ClockOption, seats: int, turn_based: bool = False) -> None:
        self.option = option
        self.bank_ms = [option.bank * 1000] * seats
        self.key: Key | None = None
        self.turn_ms = option.turn * 1000
        self.running = False
        self.spent = False  # this turn timed out: stopped until the next turn
        self.held = False  # restored: stopped until the player to act is connected
        self.since = 0.0  # room-clock time the remaining times were last settled at
        # Turn-based only. `late`: the turn ran out and nobody stands in yet (the other
        # players choose a stand-in or the end; the player may still move meanwhile).
        # `away_until`: room-clock time until which a seat's clock is paused ("away until",
        # once per game: `away_used`).
        self.turn_based = turn_based
        self.late = False
        self.away_until = [0.0] * seats
        self.away_used = [False] * seats

    @property
    def seat(self) -> int | None:
        return None if self.key is None else self.key[1]

    def _start(self) -> float:
        """When the running seat's time began to count: not before its pause is over."""
        return self.since if self.seat is None else max(self.since, self.away_until[self.seat])

    def pause(self, seat: int, now: float, seconds: float) -> None:
        """The seat's player is away until now + seconds: their clock does not run."""
        self._settle(now)
        self.away_until[seat] = now + seconds
        self.away_used[seat] = True

    def _settle(self, now: float) -> None:
        if self.running and self.seat is not None:
            used = max(0, round((now - self._start()) * 1000))
            from_turn = min(used, self.turn_ms)
            self.turn_ms -= from_turn
            self.bank_ms[self.seat] = max(0, self.bank_ms[self.seat] - (used - from_turn))
        self.since = now

    def sync(self, now: float, key: Key | None, human: bool, present: bool = True) -> bool:
        """Bring the clock to `now` for the turn `key` (None: no turn, e.g. the game is
        over); it runs if a person plays that turn (`present`: their player is connected,
        which releases a restored clock). True when a new turn began."""
        self._settle(now)
        changed = key != self.key
        if changed:
            self.key, self.turn_ms, self.spent = key, self.option.turn * 1000, False
            self.late = False
        if changed or present:
            self.held = False
        self.running = key is not None and human and not self.spent and not self.held
        return changed

    def left(self, now: float) -> tuple[int, int]:
        """(turn ms, bank ms) the player to act has at `now`; the state is not changed."""
        if self.seat is None:
            return 0, 0
        turn, bank = self.turn_ms, self.bank_ms[self.seat]
        if self.running:
            used = max(0, round((now - self._start()) * 1000))
            from_turn = min(used, turn)
            turn, bank = turn - from_turn, max(0, bank - (used - from_turn))
        return turn, bank

    def deadline(self) -> float | None:
        """Room-clock time at which the running turn times out; None if it is stopped."""
        if not self.running or self.seat is None:
            return None
        return self._start() + (self.turn_ms + self.bank_ms[self.seat]) / 1000

    def expired(self, now: float) -> bool:
        deadline = self.deadline()
        return deadline is not None and now >= deadline

    def time_out(self, now: float) -> None:
        """The turn ran out: nothing left, stopped until the next turn."""
        self._settle(now)
        if self.seat is not None:
            self.turn_ms, self.bank_ms[self.seat] = 0, 0
        self.running, self.spent = False, True

    def view(self, now: float) -> dict[str, Any]:
        """What a client needs to draw the countdown: remaining times at `at` (this
        version's server time, ms), whether they are running down, and every bank."""
        turn, bank = self.left(now)
        banks = list(self.bank_ms)
        if self.seat is not None:
            banks[self.seat] = bank
        view: dict[str, Any] = {
            "seat": self.seat, "running": self.running, "turn_ms": turn, "bank_ms": banks,
            "at": round(now * 1000),
        }
        if self.turn_based:
            view["late"] = self.late
            view["away_ms"] = self._away_ms(now)
            view["away_used"] = list(self.away_used)
        return view

    def _away_ms(self, now: float) -> list[int]:
        return [max(0, round((until - now) * 1000)) for until in self.away_until]

    # --- saving and restoring (the journal keeps this between processes) ----------------

    def state(self, now: float) -> dict[str, Any]:
        turn, bank = self.left(now)
        banks = list(self.bank_ms)
        if self.seat is not None:
            banks[self.seat] = bank
        state: dict[str, Any] = {
            "key": None if self.key is None else list(self.key), "turn_ms": turn,
            "bank_ms": banks, "spent": self.spent,
        }
        if self.turn_based:  # a pause is kept as what is left of it: downtime is free
            state.update(late=self.late, away_ms=self._away_ms(now),
                         away_used=list(self.away_used))
        return state

    def load(self, state: dict[str, Any], now: float) -> None:
        key = state.get("key")
        self.key = None if key is None else (int(key[0]), int(key[1]))
        self.turn_ms = int(state["turn_ms"])
        banks = [int(b) for b in state["bank_ms"]]
        if len(banks) == len(self.bank_ms):
            self.bank_ms = banks
        self.spent = bool(state.get("spent", False))
        self.running, self.since, self.held = False, now, True
        self.late = bool(state.get("late", False))
        away = [int(ms) for ms in state.get("away_ms") or []]
        used = [bool(u) for u in state.get("away_used") or []]
        if len(away) == len(self.away_until) and len(used) == len(self.away_used):
            self.away_until = [now + ms / 1000 for ms in away]
            self.away_used = used

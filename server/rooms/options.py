"""A room's options: the game's options (owned by server.rules) plus the room's own."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Literal

from server.rules import GameOptions

from .turnclock import MODES, REALTIME, ClockOption, ClockOptionError


@dataclass(frozen=True, slots=True)
class RoomOptions(GameOptions):
    """GameOptions (players, starter_orders, starting_player) and how the room is run."""

    public: bool = field(default=False, metadata={
        "description": "listed in the lobby; else reachable by link only"})
    clock: ClockOption | None = field(default=None, metadata={
        "description": "a turn clock; null or absent: none"})
    rated: bool = field(default=True, metadata={
        "description": "the game moves the players' ratings if every human seat is held "
                       "by a signed-in account at the end; absent: true"})
    mode: Literal["realtime", "turn_based"] = field(default="realtime", metadata={
        "description": "realtime: a sitting; turn_based: a game over days, a move whenever "
                       "a player has a minute (a clock in hours and days, an e-mail when it "
                       "is their turn, the room kept while the game is on)"})
    hints: bool = field(default=False, metadata={
        "description": "a seated player may ask what the expert bot would do (a `hint` "
                       "frame); everyone is shown that the room allows it; absent: false"})

    def __post_init__(self) -> None:  # a stored room gives its clock in dict form
        object.__setattr__(self, "clock", ClockOption.from_value(self.clock))
        if self.mode not in MODES:
            raise ClockOptionError(f"mode is one of {', '.join(MODES)}")
        if self.clock is not None:
            self.clock.check(self.mode)

    @property
    def turn_based(self) -> bool:
        return self.mode != REALTIME

    def to_dict(self) -> dict[str, Any]:
        options = GameOptions.to_dict(self)
        options["public"] = self.public
        if self.mode != REALTIME:  # absent in real time (as before modes existed)
            options["mode"] = self.mode
        if self.clock is not None:  # absent without a clock (as before clocks existed)
            options["clock"] = self.clock.to_dict()
        if not self.rated:  # absent when rated (as before ratings existed)
            options["rated"] = False
        if self.hints:  # absent when off (as before hints existed)
            options["hints"] = True
        return options

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RoomOptions:
        """Room options from their stored (journal) form; raises ValueError if unusable."""
        if not isinstance(data, Mapping) or type(data.get("players")) is not int:
            raise ValueError(f"options {data!r} give no number of players")
        options = cls(**{k: data[k] for k in ROOM_OPTION_NAMES if k in data})
        options.check()
        return options


ROOM_OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in fields(RoomOptions))

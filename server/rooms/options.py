"""A room's options: the game's options (owned by server.rules) plus the room's own."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from server.rules import GameOptions

from .turnclock import ClockOption


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

    def __post_init__(self) -> None:  # a stored room gives its clock in dict form
        object.__setattr__(self, "clock", ClockOption.from_value(self.clock))

    def to_dict(self) -> dict[str, Any]:
        options = GameOptions.to_dict(self)
        options["public"] = self.public
        if self.clock is not None:  # absent without a clock (as before clocks existed)
            options["clock"] = self.clock.to_dict()
        if not self.rated:  # absent when rated (as before ratings existed)
            options["rated"] = False
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

"""A room's options: the game's options (owned by server.rules) plus the room's own, and
the lobby's form made from their fields."""

from __future__ import annotations

import typing
from collections.abc import Mapping
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, Literal

from server.rules import GameOptions, MalformedAction
from server.rules.options import stored_form

from .turnclock import MODES, REALTIME, ClockOption, ClockOptionError


@dataclass(frozen=True, slots=True, kw_only=True)
class RoomOptions(GameOptions):
    """GameOptions (players, starter_orders, starting_player) and how the room is run."""

    # In the order the lobby's form shows them (keyword-only: the order may change).
    mode: Literal["realtime", "turn_based"] = field(default="realtime", metadata={
        "description": "realtime: a sitting; turn_based: a game over days, a move whenever "
                       "a player has a minute (a clock in hours and days, an e-mail when it "
                       "is their turn, the room kept while the game is on)",
        "control": "choice"})
    clock: ClockOption | None = field(default=None, metadata={
        "description": "a turn clock; null or absent: none", "control": "clock"})
    rated: bool = field(default=True, metadata={
        "description": "the game moves the players' ratings if every human seat is held "
                       "by a signed-in account at the end; absent: true",
        "control": "check"})
    hints: bool = field(default=False, metadata={
        "description": "a seated player may ask what the expert bot would do (a `hint` "
                       "frame); everyone is shown that the room allows it; absent: false",
        "control": "check"})
    public: bool = field(default=False, metadata={
        "description": "listed in the lobby; else reachable by link only",
        "control": "choice", "stored": "always"})  # the room info always had it

    def __post_init__(self) -> None:  # a stored room gives its clock in dict form
        object.__setattr__(self, "clock", ClockOption.from_value(self.clock))
        if self.mode not in MODES:
            raise ClockOptionError(f"mode is one of {', '.join(MODES)}")
        if self.clock is not None:
            self.clock.check(self.mode)

    def check(self) -> None:
        """GameOptions.check, and: a lesson (its deal known in advance) is never rated."""
        GameOptions.check(self)  # (a slots dataclass: no zero-argument super())
        if self.lesson and self.rated:
            raise MalformedAction("a lesson is unrated: rated must be false", "R-SETUP-L")

    @property
    def turn_based(self) -> bool:
        return self.mode != REALTIME

    def to_dict(self) -> dict[str, Any]:
        """The stored (journal) form, which is also the room info's: every field, so a new
        option is kept with nothing more to write (rules.options.stored_form: a room
        option at its default is absent unless its metadata says `"stored": "always"`)."""
        return stored_form(self, fields(self))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RoomOptions:
        """Room options from their stored (journal) form; raises ValueError if unusable."""
        if not isinstance(data, Mapping) or type(data.get("players")) is not int:
            raise ValueError(f"options {data!r} give no number of players")
        options = cls(**{f.name: data[f.name] for f in fields(cls) if f.name in data})
        options.check()
        return options


ROOM_OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in fields(RoomOptions))


# The lobby's controls, by the `control` in an option's metadata: a number of seats
# (`count`), one of a few values (`choice`), on or off (`check`), a seat or none (`seat`,
# among the chosen number of players), the turn clock (`clock`, its own form).
CONTROLS = ("count", "choice", "check", "seat", "clock")


def option_form(cls: type[RoomOptions] | None = None) -> list[dict[str, Any]]:
    """The options a host chooses, in field order: name, control, default and choices, each
    choice with its sentence key (`option.<name>.<value>`; the option's own is
    `option.<name>`). The lobby's form and the waiting room's summary are made from it
    (/api/rules-data `options`)."""
    cls = cls or RoomOptions
    hints = typing.get_type_hints(cls)
    form = []
    for f in fields(cls):
        control = f.metadata.get("control")
        if control is None:
            continue
        assert control in CONTROLS, f"{f.name}: unknown control {control!r}"
        choices = _choices(hints[f.name], f.metadata) if control in ("count", "choice") \
            else [False, True] if control == "check" else []
        default = choices[0] if f.default is MISSING else f.default
        form.append({
            "name": f.name, "control": control, "default": default,
            "choices": [{"value": c, "key": None if control == "count"  # shown as is
                         else f"option.{f.name}.{_key(c)}"} for c in choices],
        })
    return form


def _choices(annotation: Any, metadata: Mapping[str, Any]) -> list[Any]:
    if annotation is bool:
        return [False, True]
    if typing.get_origin(annotation) is Literal:
        return list(typing.get_args(annotation))
    return list(range(metadata["ge"], metadata["le"] + 1))  # a count between its bounds


def _key(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)

"""Pydantic models of the options, derived from the dataclasses that own them.

`server.rules.GameOptions` declares the game's options and `server.rooms.RoomOptions` adds
the room's; their fields (names, types, defaults, bounds and descriptions in the field
metadata) become the HTTP request body, the export document's options and the documented
room info here, so a new option needs no edit in this file.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import TYPE_CHECKING, Any, TypeAlias

from pydantic import BaseModel, ConfigDict, Field, create_model, model_validator

from server.rules import GAME_OPTION_NAMES, MAX_PLAYERS, MIN_PLAYERS, GameOptions

from .options import RoomOptions
from .turnclock import MODES, REALTIME, ClockOption, mode_bounds


def whole_numbers(model: type[BaseModel], data: Any) -> Any:
    """`data` with a whole float given for an integer field (3.0, 3600.0) as that integer:
    JSON Schema's "integer" is any number without a fraction, and JSON has one number type.
    Anything else is left to strict validation."""
    if not isinstance(data, dict):
        return data
    fixed = dict(data)
    for name, field in model.model_fields.items():
        value = fixed.get(name)
        if isinstance(value, float) and value.is_integer() and _takes_int(field.annotation):
            fixed[name] = int(value)
    return fixed


def _takes_int(annotation: Any) -> bool:
    kinds = typing.get_args(annotation) if typing.get_origin(annotation) in (
        typing.Union, types.UnionType) else (annotation,)
    return int in kinds and float not in kinds


class Strict(BaseModel):
    """Wrong types or unknown fields are refused (HTTP bodies, imported documents)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    @model_validator(mode="before")
    @classmethod
    def _whole_numbers(cls, data: Any) -> Any:
        return whole_numbers(cls, data)


SCHEMA_KEYS = ("description", "ge", "le")  # the metadata that documents and bounds a field


def model_of(
    cls: type, name: str, base: type[BaseModel], nested: dict[type, type[BaseModel]],
    doc: str | None = None,
) -> type[BaseModel]:
    """A pydantic model with one field per dataclass field of `cls` (dataclass-typed fields
    replaced by their models in `nested`)."""
    hints = typing.get_type_hints(cls)
    fields: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        annotation = _swap(hints[f.name], nested)
        default = ... if f.default is dataclasses.MISSING else f.default
        schema = {k: v for k, v in f.metadata.items() if k in SCHEMA_KEYS}
        fields[f.name] = (annotation, Field(default, **schema))
    return create_model(name, __base__=base, __doc__=doc or cls.__doc__, **fields)


def _swap(annotation: Any, nested: dict[type, type[BaseModel]]) -> Any:
    if annotation in nested:
        return nested[annotation]
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        parts = tuple(_swap(a, nested) for a in typing.get_args(annotation))
        return typing.Union[parts]  # noqa: UP007 - built from a runtime tuple
    return annotation


def _across_fields(schema: dict[str, Any]) -> None:
    """What `_SeatExists` checks across fields, in JSON Schema, so that a body the schema
    allows is taken: the starting player is one of the seats, the clock within the bounds
    of the room's mode, a lesson unrated. (A bound or a property applies to a number or an
    object only: a null starting player or clock passes.)"""
    seats = [{"if": {"properties": {"players": {"const": n}}},
              "then": {"properties": {"starting_player": {"maximum": n - 1}}}}
             for n in range(MIN_PLAYERS, MAX_PLAYERS)]
    clocks = []
    for mode in MODES:
        (turn_min, turn_max), (bank_min, bank_max) = mode_bounds(mode)
        chosen: dict[str, Any] = {"properties": {"mode": {"const": mode}}}
        if mode != REALTIME:  # the default
            chosen["required"] = ["mode"]
        clocks.append({"if": chosen, "then": {"properties": {"clock": {"properties": {
            "turn": {"minimum": turn_min, "maximum": turn_max},
            "bank": {"minimum": bank_min, "maximum": bank_max}}}}}})
    # A lesson (its deal known in advance) is unrated (RoomOptions.check).
    lesson = {"if": {"properties": {"lesson": {"const": True}}, "required": ["lesson"]},
              "then": {"properties": {"rated": {"const": False}}, "required": ["rated"]}}
    schema["allOf"] = [*seats, *clocks, lesson]


class _SeatExists(Strict):
    """A body whose starting player must be one of its seats (checked by the rules)."""

    model_config = ConfigDict(json_schema_extra=_across_fields)

    @model_validator(mode="after")
    def _check_game_options(self) -> _SeatExists:
        values = self.model_dump()
        GameOptions(**{k: values[k] for k in GAME_OPTION_NAMES}).check()
        if values.get("clock") is not None:  # the clock's bounds depend on the mode
            ClockOption(**values["clock"]).check(values.get("mode", REALTIME))
        RoomOptions.from_dict(values)  # the room's own checks too (a lesson is unrated)
        return self


def options_models(
    base: type[BaseModel], names: tuple[str, str], options_base: type[BaseModel] | None = None,
) -> tuple[type[BaseModel], type[BaseModel]]:
    """(clock model, room options model) on `base`, with these names."""
    clock = model_of(ClockOption, names[0], base, {},
                     "A turn clock: seconds per turn, plus a bank per seat spent once a "
                     "turn's time is up (e.g. 60 + 300, 30 + 120, 120 + 600; turn-based: "
                     "86400 + 259200, a day per move plus three days).")
    options = model_of(RoomOptions, names[1], options_base or base,
                       {ClockOption: clock})
    return clock, options


if TYPE_CHECKING:  # built at run time: to a type checker, plain pydantic models
    Clock: TypeAlias = BaseModel
    CreateRoom: TypeAlias = BaseModel
    DocumentClock: TypeAlias = BaseModel
    DocumentOptions: TypeAlias = BaseModel
    ClockModel: TypeAlias = BaseModel
    RoomOptionsModel: TypeAlias = BaseModel
else:
    # The HTTP body creating a room: exactly the room options.
    Clock, CreateRoom = options_models(Strict, ("Clock", "CreateRoom"), _SeatExists)
    # The options in an exported game document (imported strictly; replay checks the rest).
    DocumentClock, DocumentOptions = options_models(
        Strict, ("DocumentClock", "DocumentOptions"))
    # The options in the room info (documentation of the server frames).
    ClockModel, RoomOptionsModel = options_models(
        BaseModel, ("ClockModel", "RoomOptionsModel"))

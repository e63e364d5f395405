"""The documented shape of GET /api/rules-data (server/api/rules_data.py), field by field;
tests/api/test_openapi.py checks that it names every key the route sends, and nothing else."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, JsonValue
from pydantic.json_schema import JsonDict

from server.rooms.options import CONTROLS
from server.rules import PHASES, TURN_PHASES


def _strings(description: str, values: tuple[str, ...] | None = None) -> Any:
    """A list of strings; with `values`, exactly those may appear."""
    allowed: list[JsonValue] = list(values or ())
    extra: JsonDict | None = (None if values is None
                              else {"items": {"type": "string", "enum": allowed}})
    return Field(description=description, json_schema_extra=extra)


class OptionChoice(BaseModel):
    value: Any = Field(description="a value the option takes")
    key: str | None = Field(description="its sentence key, `option.<name>.<value>`; null: "
                                        "shown as it is (a count of players)")


class OptionControl(BaseModel):
    """One option of the create-room body (CreateRoom), as the lobby's form shows it."""

    name: str = Field(description="the option's field in the create-room body; its own "
                                  "sentence key is `option.<name>`")
    control: str = Field(
        description="the widget: count (a number of seats), choice (one of a few values), "
                    "check (on or off), seat (one of the chosen number of seats, or none), "
                    "clock (the turn clock's own form)",
        json_schema_extra={"enum": list[JsonValue](CONTROLS)})
    default: Any = Field(description="the value when the body leaves the option out")
    choices: list[OptionChoice] = Field(description="the values to choose from, in order; "
                                                    "empty for seat and clock")


class RulesData(BaseModel):
    """The game's components and the server's registries, as the browser reads them (every
    page embeds the same JSON)."""

    model_config = ConfigDict(extra="forbid")

    rules_version: int = Field(description="the version of the rules the server plays; a "
                                           "stored game of another version is not replayed")
    board: list[list[str]] = Field(description="the 4x4 board's ingredients, row by row")
    cells: list[str] = _strings("the cell names, r1c1..r4c4, row by row")
    specialty_ingredients: list[str] = _strings("the ingredients only specialty cells give")
    specialty_cells: list[str] = _strings("the cells that give a specialty ingredient")
    corners: list[str] = _strings("the corner cells")
    ingredients: list[str] = _strings("every ingredient, in the order the views list them")
    tiles: list[str] = _strings("the upgrade tiles")
    phases: list[str] = _strings("every phase a game goes through, in order", PHASES)
    phase_over: str = Field(description="the phase of a game that is over")
    turn_phases: list[str] = _strings(
        "the phases of one player's turn, in order (upgrade, move, pour, process); the "
        "phases before them set the game up", TURN_PHASES)
    actions: list[dict[str, Any]] = Field(
        description="each action type: `type`, its `fields`, the `phases` it is played "
                    "in, the `rule` id and the `control` kind the page offers it with")
    events: list[dict[str, Any]] = Field(
        description="each event type: its `sentence` key and `variants`, its sentence's "
                    "`args` as [field, kind], who it is `by`, whether screen readers "
                    "`announce` it")
    bot_levels: list[str] = _strings("the bot levels a host may seat, weakest first")
    options: list[OptionControl] = Field(
        description="the create-room options in the lobby form's order (the waiting "
                    "room's summary is made from them too)")
    name_max: int = Field(description="the most characters a seat name has")
    code_alphabet: str = Field(description="the characters of a room code")
    code_length: int = Field(description="the characters in a room code (shown XXXX-XXXX)")
    chat_max: int = Field(description="the most characters a chat message has")
    reactions: list[str] = _strings("the quick reactions a chat frame may send")
    error_codes: list[str] = _strings("every error code; each has its sentence `err.<code>` "
                                      "in every language")

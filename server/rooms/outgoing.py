"""Every frame the server sends is built here, from the models that document it.

The pydantic models below are the protocol's documentation (docs/PROTOCOL.md's schemas are
generated from them) and tests check every builder's output against its model; the
builders themselves are plain dict (or, for the hot patch frame, text) constructors, so
sending a frame costs no validation. Adding a frame type: its model and builder here, its
entry in SERVER_FRAMES, then the code that sends it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal, TypedDict

from pydantic import BaseModel, Field, GetCoreSchemaHandler, GetJsonSchemaHandler, StringConstraints
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, PydanticCustomError, core_schema

from server.rules import Action, GameView, parse_action

from .diff import Op
from .events import Event
from .option_models import RoomOptionsModel

INT64 = (-(2**63), 2**63 - 1)
FrameId = (
    Annotated[str, StringConstraints(max_length=64)]
    | Annotated[int, Field(ge=INT64[0], le=INT64[1])]
)
Id = str | int | None


def _action(value: object) -> Action:
    if not isinstance(value, dict):
        raise PydanticCustomError("dict_type", "Input should be a valid dictionary")
    return parse_action(value)  # its MalformedAction is the error's ctx["error"]


class _ActionSchema:
    """How a model reads an action: a JSON object that server.rules.parse_action takes
    (its refusal, a MalformedAction, is the validation error's `ctx["error"]`), the same
    dict, typed; documented as a JSON object (the action types are in PROTOCOL.md's list)."""

    @classmethod
    def __get_pydantic_core_schema__(cls, source: object,
                                     handler: GetCoreSchemaHandler) -> CoreSchema:
        return core_schema.no_info_plain_validator_function(_action)

    @classmethod
    def __get_pydantic_json_schema__(cls, schema: CoreSchema,
                                     handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        return {"additionalProperties": True, "type": "object"}


# An action in a model: a client's `act`, a `hint` frame, an imported game's actions.
ActionField = Annotated[Action, _ActionSchema]


class SeatInfo(BaseModel):
    seat: int
    name: str | None
    connected: bool
    bot: str | None = Field(description="the bot level seated here, or null for a player")
    stand_in: str | None = Field(
        None, description="only while a player is away: the bot level playing for them"
    )
    away: bool | None = Field(
        None, description="only true, after 3 turn-clock timeouts in a row: until `back`"
    )
    verified: bool | None = Field(
        None, description="only true: a signed-in player, seated under their account's name"
    )


class ClockState(BaseModel):
    """The turn clock at this version, for a countdown that needs no synchronised clock:
    the remaining times were measured at `at`, this version's server time."""

    seat: int | None = Field(description="the seat whose time runs (null: nobody's)")
    running: bool = Field(description="false while a bot plays the turn or it timed out")
    turn_ms: int = Field(description="what is left of this turn's time at `at`")
    bank_ms: list[int] = Field(description="every seat's bank at `at`")
    at: int = Field(description="server time of this version, ms (compare only with other `at`)")
    late: bool | None = Field(
        None, description="turn-based only: the player to act ran out of time and bank and "
        "nobody stands in yet; the other players choose (`POST /api/rooms/{code}/late`)")
    away_ms: list[int] | None = Field(
        None, description="turn-based only: what is left of each seat's pause (away until) "
        "at `at`; a paused seat's clock does not run")
    away_used: list[bool] | None = Field(
        None, description="turn-based only: which seats have used their one pause")


class RoomInfo(BaseModel):
    code: str = Field(description='display form, e.g. "K7QX-PM2A"')
    status: Literal["waiting", "playing", "finished", "incompatible"]
    options: RoomOptionsModel  # derived from RoomOptions
    host_seat: int | None
    seats: list[SeatInfo]
    spectators: int
    notice: str | None = Field(
        None, description="only when incompatible: why this game cannot continue here"
    )
    rematch: str | None = Field(
        None, description="only once a player asked for a rematch: the next table's code"
    )
    clock: ClockState | None = Field(None, description="only while playing with a turn clock")


class You(BaseModel):
    seat: int | None
    role: Literal["player", "spectator"]


class View(BaseModel):
    room: RoomInfo
    you: You
    game: dict[str, Any] | None = Field(description="null before the start, else the engine view")


class SeatView(TypedDict):
    """A VIEW as the room builds it (no validation: `View` above documents it)."""

    room: dict[str, Any]  # RoomInfo's fields
    you: YouView
    game: GameView | None


class YouView(TypedDict):
    seat: int | None
    role: Literal["player", "spectator"]


class PatchOp(BaseModel):
    op: Literal["add", "remove", "replace"]
    path: str
    value: Any = None


class Snapshot(BaseModel):
    type: Literal["snapshot"]
    v: int
    view: View


class Patch(BaseModel):
    type: Literal["patch"]
    v: int
    ops: list[PatchOp] = Field(description="RFC 6902, from your view at v-1")
    events: list[dict[str, Any]]


class Ack(BaseModel):
    type: Literal["ack"]
    id: FrameId
    v: int


class Error(BaseModel):
    type: Literal["error"]
    id: FrameId | None
    code: str
    message: str


class Bye(BaseModel):
    type: Literal["bye"]
    reason: str


class Pong(BaseModel):
    type: Literal["pong"]


class ChatMessage(BaseModel):
    n: int = Field(description="the message's number in this room's talk (gaps: other talk)")
    channel: Literal["players", "spectators"]
    author: str = Field(description='"p<seat>" or "w<spectator number>", for `mute`')
    seat: int | None
    name: str | None = Field(description="the player's name; null for a spectator")
    text: str | None = Field(description="plain text: render it as text, never as HTML")
    reaction: Literal["thumbs", "sweat", "coffee", "gg", "wait"] | None
    after: int = Field(description="how many game actions had been played when it was said")
    at: int = Field(description="server time, ms")


class ChatFrame(BaseModel):
    """Messages you may see: new ones, or (`recent`) the last 50, to replace your list."""

    type: Literal["chat"]
    recent: bool
    messages: list[ChatMessage]


class Watcher(BaseModel):
    """Sent to a spectator after hello: who it is at this table. Send `token` as `watcher`
    in your next hello to stay the same author (mutes and the chat limit follow it)."""

    type: Literal["watcher"]
    token: str = Field(description="your spectator token at this table; keep it secret")
    author: str = Field(description='"w<spectator number>", as in chat messages')


class HintWhy(BaseModel):
    """One line of why, as data: the browser says it in the reader's language."""

    key: str = Field(description='a sentence key, "hint.why.<kind>" (e.g. hint.why.serve)')
    args: dict[str, Any] = Field(
        description="its parameters: order (a name), orders (names), tab and cup (counted "
        "from 1), ingredient, cell, tile")


class Hint(BaseModel):
    """The answer to your `hint`, sent to you only: what the expert bot would do from your
    seat's view (never anything hidden), and why. It changes nothing; the game records it
    for the replay."""

    type: Literal["hint"]
    id: FrameId = Field(description="the `hint` frame's id")
    action: ActionField = Field(description="one of your view's `legal` actions")
    path: list[str] = Field(
        description="in the move phase: the cells the suggested move goes through, in "
        "order (the action is its first step or meeple choice); else empty")
    why: HintWhy
    after: int = Field(description="how many game actions had been played (the position)")


AnyServerFrame = Annotated[
    Snapshot | Patch | Ack | Error | Bye | Pong | ChatFrame | Watcher | Hint,
    Field(discriminator="type"),
]
SERVER_FRAMES: tuple[type[BaseModel], ...] = (Snapshot, Patch, Ack, Error, Bye, Pong, ChatFrame,
                                              Watcher, Hint)


# --- the builders (no validation: tests check their output against the models) --------


def snapshot(v: int, view: SeatView) -> dict[str, Any]:
    return {"type": "snapshot", "v": v, "view": view}


def patch(v: int, ops: list[Op], events: Sequence[Event]) -> dict[str, Any]:
    """A patch frame as a dict (the room sends its text: patch_head + ops + patch_tail)."""
    return {"type": "patch", "v": v, "ops": ops, "events": events}


def patch_head(v: int) -> str:
    """The text of a patch frame up to its ops list (opened): ops, then patch_tail."""
    return f'{{"type":"patch","v":{v},"ops":['


def patch_tail(events_text: str) -> str:
    """The text closing a patch frame after its ops, with its events as JSON text."""
    return '],"events":' + events_text + "}"


def ack(frame_id: Id, v: int) -> dict[str, Any]:
    return {"type": "ack", "id": frame_id, "v": v}


def error(frame_id: Id, code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "id": frame_id, "code": code, "message": message}


def bye(reason: str) -> dict[str, Any]:
    return {"type": "bye", "reason": reason}


PONG: dict[str, Any] = {"type": "pong"}  # the same frame every time: built once


def chat(recent: bool, messages: list[dict[str, Any]]) -> dict[str, Any]:
    return {"type": "chat", "recent": recent, "messages": messages}


def watcher(token: str, author: str) -> dict[str, Any]:
    return {"type": "watcher", "token": token, "author": author}


def hint(frame_id: Id, action: Action, path: list[str], why: dict[str, Any],
         after: int) -> dict[str, Any]:
    return {"type": "hint", "id": frame_id, "action": action, "path": path, "why": why,
            "after": after}

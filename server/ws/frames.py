"""Client frames, validated at the boundary: a pydantic discriminated union on "type".

Anything that is not exactly one of these frames is refused with a coded error before a
room sees it: bad JSON or shape -> "malformed", an unknown "type" -> "unknown_type".
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter, ValidationError

from server.error_codes import registered
from server.rooms.option_models import RoomOptionsModel

INT64 = (-(2**63), 2**63 - 1)
FrameId = (
    Annotated[str, StringConstraints(max_length=64)]
    | Annotated[int, Field(ge=INT64[0], le=INT64[1])]
)
ID_RULE = "id: a string of at most 64 characters or a 64-bit integer"


class ClientFrame(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Hello(ClientFrame):
    """The first frame: who you are and the last version you saw."""

    type: Literal["hello"]
    token: Annotated[str, StringConstraints(max_length=128)] | None = Field(
        None, description="a seat_token to play; null or absent to spectate"
    )
    v: Annotated[int, Field(ge=0)] | None = Field(
        None, description="last version seen with this same token, to resume"
    )


class Act(ClientFrame):
    """Play one engine action; `v` is the version of the view it was chosen from."""

    type: Literal["act"]
    id: FrameId = Field(description="echoed in the ack or error")
    v: Annotated[int, Field(ge=0)]
    action: dict[str, Any] = Field(description="one of the view's `legal` actions")


class Ping(ClientFrame):
    type: Literal["ping"]


class Chat(ClientFrame):
    """Say something at the table: `text` (1..200 characters after trimming, no control
    characters) or one quick `reaction`, not both. Never changes the version."""

    type: Literal["chat"]
    id: FrameId = Field(description="echoed in the ack or error")
    text: Annotated[str, StringConstraints(max_length=1000)] | None = None
    reaction: Literal["thumbs", "sweat", "coffee", "gg", "wait"] | None = None


class Mute(ClientFrame):
    """Stop (or start again) receiving one author's chat on this connection."""

    type: Literal["mute"]
    author: Annotated[str, StringConstraints(pattern=r"^[pw][0-9]{1,6}$")] = Field(
        description='a chat message\'s author: "p<seat>" or "w<spectator number>"'
    )
    muted: bool = True


class Back(ClientFrame):
    """A player whose seat counts as away (timeouts in a row) takes it back."""

    type: Literal["back"]


AnyClientFrame = Annotated[Hello | Act | Ping | Chat | Mute | Back, Field(discriminator="type")]
CLIENT_TYPES = ("hello", "act", "ping", "chat", "mute", "back")
_adapter: TypeAdapter[Hello | Act | Ping | Chat | Mute | Back] = TypeAdapter(AnyClientFrame)


class FrameError(Exception):
    def __init__(self, code: str, message: str, frame_id: str | int | None = None) -> None:
        super().__init__(message)
        self.code = registered(code)
        self.message = message
        self.id = frame_id


def echoable(frame_id: object) -> bool:
    """Whether an id can be sent back as it came: a short string or a 64-bit integer."""
    if type(frame_id) is int:
        return INT64[0] <= frame_id <= INT64[1]
    return isinstance(frame_id, str) and len(frame_id) <= 64


def parse(text: str) -> Hello | Act | Ping | Chat | Mute | Back:
    """One client frame from its JSON text, or FrameError.

    orjson reads strictly: lone surrogates, NaN and nesting deeper than 1024 are not JSON,
    so everything a frame carries can be written back (an id echoed, an action journaled).
    """
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError:
        raise FrameError("malformed", "a frame is one JSON object") from None
    if not isinstance(data, dict):
        raise FrameError("malformed", "a frame is one JSON object")
    frame_id = data.get("id")
    if not echoable(frame_id):
        if "id" in data:  # refused before anything else: the answer cannot carry it
            raise FrameError("malformed", ID_RULE)
        frame_id = None
    kind = data.get("type")
    if not isinstance(kind, str):
        raise FrameError("malformed", "a frame needs a string 'type'", frame_id)
    if kind not in CLIENT_TYPES:
        raise FrameError("unknown_type", f"unknown frame type {kind[:32]!r}", frame_id)
    try:
        return _adapter.validate_python(data)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or kind
        raise FrameError("malformed", f"{kind}: {where}: {first['msg']}", frame_id) from None


def too_large_texts(limit: int) -> tuple[str, str]:
    """The error and bye sent for a frame over the size cap, before close 1009."""
    error = {"type": "error", "id": None, "code": "too_large",
             "message": f"frames are limited to {limit} bytes"}
    bye = {"type": "bye", "reason": "too_large"}
    return orjson.dumps(error).decode(), orjson.dumps(bye).decode()


# --- server frames (documentation and tests; the room builds these as plain dicts) -------


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


class ClockState(BaseModel):
    """The turn clock at this version, for a countdown that needs no synchronised clock:
    the remaining times were measured at `at`, this version's server time."""

    seat: int | None = Field(description="the seat whose time runs (null: nobody's)")
    running: bool = Field(description="false while a bot plays the turn or it timed out")
    turn_ms: int = Field(description="what is left of this turn's time at `at`")
    bank_ms: list[int] = Field(description="every seat's bank at `at`")
    at: int = Field(description="server time of this version, ms (compare only with other `at`)")


class RoomInfo(BaseModel):
    code: str = Field(description='display form, e.g. "K7QX-PM2A"')
    status: Literal["waiting", "playing", "finished", "incompatible"]
    options: RoomOptionsModel  # type: ignore[valid-type]  # derived from RoomOptions
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


AnyServerFrame = Annotated[
    Snapshot | Patch | Ack | Error | Bye | Pong | ChatFrame, Field(discriminator="type")
]
SERVER_FRAMES: tuple[type[BaseModel], ...] = (Snapshot, Patch, Ack, Error, Bye, Pong, ChatFrame)
CLIENT_FRAMES: tuple[type[BaseModel], ...] = (Hello, Act, Ping, Chat, Mute, Back)

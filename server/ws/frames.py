"""Client frames, validated at the boundary: a pydantic discriminated union on "type".

Anything that is not exactly one of these frames is refused with a coded error before a
room sees it: bad JSON or shape -> "malformed", an unknown "type" -> "unknown_type".
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter, ValidationError

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


AnyClientFrame = Annotated[Hello | Act | Ping, Field(discriminator="type")]
CLIENT_TYPES = ("hello", "act", "ping")
_adapter: TypeAdapter[Hello | Act | Ping] = TypeAdapter(AnyClientFrame)


class FrameError(Exception):
    def __init__(self, code: str, message: str, frame_id: str | int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.id = frame_id


def echoable(frame_id: object) -> bool:
    """Whether an id can be sent back as it came: a short string or a 64-bit integer."""
    if type(frame_id) is int:
        return INT64[0] <= frame_id <= INT64[1]
    return isinstance(frame_id, str) and len(frame_id) <= 64


def parse(text: str) -> Hello | Act | Ping:
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


class RoomOptionsModel(BaseModel):
    players: int = Field(ge=2, le=4)
    starter_orders: bool = False
    starting_player: int | None = None
    public: bool = False


class RoomInfo(BaseModel):
    code: str = Field(description='display form, e.g. "K7QX-PM2A"')
    status: Literal["waiting", "playing", "finished", "incompatible"]
    options: RoomOptionsModel
    host_seat: int | None
    seats: list[SeatInfo]
    spectators: int
    notice: str | None = Field(
        None, description="only when incompatible: why this game cannot continue here"
    )
    rematch: str | None = Field(
        None, description="only once a player asked for a rematch: the next table's code"
    )


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


AnyServerFrame = Annotated[
    Snapshot | Patch | Ack | Error | Bye | Pong, Field(discriminator="type")
]
SERVER_FRAMES: tuple[type[BaseModel], ...] = (Snapshot, Patch, Ack, Error, Bye, Pong)
CLIENT_FRAMES: tuple[type[BaseModel], ...] = (Hello, Act, Ping)

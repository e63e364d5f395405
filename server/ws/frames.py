"""Client frames, validated at the boundary: a pydantic discriminated union on "type".

Anything that is not exactly one of these frames is refused with a coded error before a
room sees it: bad JSON or shape -> "malformed", an unknown "type" -> "unknown_type", an
`act` whose action is not an action at all -> the engine's "malformed_action" (the shape
check is server.rules.parse_action's, so an act reaches the room as a typed `Action`).
"""

from __future__ import annotations

from typing import Annotated, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter, ValidationError

from server.error_codes import registered
from server.rooms import outgoing
from server.rooms.chat import REACTIONS
from server.rooms.outgoing import INT64, ActionField, FrameId
from server.rules import RuleError

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
    watcher: Annotated[str, StringConstraints(max_length=128)] | None = Field(
        None, description="a spectator: the token of your last `watcher` frame at this table"
    )


class Act(ClientFrame):
    """Play one engine action; `v` is the version of the view it was chosen from."""

    type: Literal["act"]
    id: FrameId = Field(description="echoed in the ack or error")
    v: Annotated[int, Field(ge=0)]
    action: ActionField = Field(description="one of the view's `legal` actions")


class Ping(ClientFrame):
    type: Literal["ping"]


class Chat(ClientFrame):
    """Say something at the table: `text` (1..200 characters after trimming, no control
    characters) or one quick `reaction`, not both. Never changes the version."""

    type: Literal["chat"]
    id: FrameId = Field(description="echoed in the ack or error")
    text: Annotated[str, StringConstraints(max_length=1000)] | None = None
    reaction: Literal[REACTIONS] | None = None  # type: ignore[valid-type]


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


class Hint(ClientFrame):
    """A seated player asks what the expert bot would do now (rooms with the `hints`
    option, on their turn): answered, to them only, by a `hint` frame with this id, or an
    error (hints_off, forbidden, not_your_turn, hint_slow, hint_busy, no_hint, stale)."""

    type: Literal["hint"]
    id: FrameId = Field(description="echoed in the hint or error")


AnyFrame = Hello | Act | Ping | Chat | Mute | Back | Hint
AnyClientFrame = Annotated[AnyFrame, Field(discriminator="type")]
CLIENT_TYPES = ("hello", "act", "ping", "chat", "mute", "back", "hint")
_adapter: TypeAdapter[AnyFrame] = TypeAdapter(AnyClientFrame)


class FrameError(Exception):
    def __init__(self, code: str, message: str, frame_id: str | int | None = None,
                 *, act: bool = False) -> None:
        super().__init__(message)
        self.code = registered(code)
        self.message = message
        self.id = frame_id
        self.act = act  # an act refused for its action: counted with the refused acts


def echoable(frame_id: object) -> bool:
    """Whether an id can be sent back as it came: a short string or a 64-bit integer."""
    if type(frame_id) is int:
        return INT64[0] <= frame_id <= INT64[1]
    return isinstance(frame_id, str) and len(frame_id) <= 64


def parse(text: str) -> AnyFrame:
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
        refusal = first.get("ctx", {}).get("error")
        if isinstance(refusal, RuleError):  # the action's shape, as the engine says it
            raise FrameError(refusal.code, refusal.message, frame_id, act=True) from None
        where = ".".join(str(p) for p in first["loc"][1:]) or kind
        raise FrameError("malformed", f"{kind}: {where}: {first['msg']}", frame_id) from None


def too_large_texts(limit: int) -> tuple[str, str]:
    """The error and bye sent for a frame over the size cap, before close 1009."""
    error = outgoing.error(None, "too_large", f"frames are limited to {limit} bytes")
    return orjson.dumps(error).decode(), orjson.dumps(outgoing.bye("too_large")).decode()


CLIENT_FRAMES: tuple[type[BaseModel], ...] = (Hello, Act, Ping, Chat, Mute, Back, Hint)

"""HTTP request bodies. Strict: wrong types or unknown fields are "malformed" (422)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from server.rooms.turnclock import BANK_MAX, BANK_MIN, TURN_MAX, TURN_MIN

Token = Annotated[str, StringConstraints(min_length=1, max_length=128)]


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Clock(Body):
    """A turn clock: seconds per turn, plus a bank per seat spent once a turn's time is up
    (e.g. 60 + 300, 30 + 120, 120 + 600)."""

    turn: int = Field(ge=TURN_MIN, le=TURN_MAX, description="seconds per turn")
    bank: int = Field(ge=BANK_MIN, le=BANK_MAX, description="seconds of bank per seat")


class CreateRoom(Body):
    players: int = Field(ge=2, le=4)
    starter_orders: bool = False
    starting_player: int | None = Field(None, description="a seat; null: drawn at random")
    public: bool = Field(False, description="listed in the lobby; else reachable by link only")
    clock: Clock | None = Field(None, description="a turn clock; null or absent: none")

    @model_validator(mode="after")
    def _seat_exists(self) -> CreateRoom:
        if self.starting_player is not None and not 0 <= self.starting_player < self.players:
            raise ValueError("starting_player must be a seat of this room")
        return self


class CreatedRoom(BaseModel):
    code: str
    url: str
    host_token: str


class JoinRoom(Body):
    name: Annotated[str, StringConstraints(max_length=200)] = Field(
        description="1..24 characters after trimming"
    )
    seat: int | None = Field(None, description="null: the first free seat")


class Joined(BaseModel):
    seat: int
    seat_token: str


class LeaveRoom(Body):
    seat_token: Token


class HostOnly(Body):
    token: Token = Field(description="the host_token or the host seat's seat_token")


class SeatOnly(Body):
    token: Token = Field(description="a seat_token of this table")


class SeatAction(HostOnly):
    seat: int


class SetClock(HostOnly):
    clock: Clock | None = Field(description="the new turn clock; null: none")


class SeatBot(HostOnly):
    seat: int | None = Field(None, description="null: the first free seat")
    level: Literal["random", "greedy", "strong"] = Field(
        description="random (for tests), greedy (a heuristic) or strong (search)"
    )


REQUEST_MODELS = (
    CreateRoom, JoinRoom, LeaveRoom, HostOnly, SeatOnly, SeatAction, SeatBot, SetClock
)
RESPONSE_MODELS = (CreatedRoom, Joined)

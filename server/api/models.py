"""HTTP request bodies. Strict: wrong types or unknown fields are "malformed" (422)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from server.rooms.option_models import Clock, CreateRoom, whole_numbers
from server.rules import MAX_PLAYERS

__all__ = ["Clock", "CreateRoom"]  # derived from the options dataclasses; re-exported here

Token = Annotated[str, StringConstraints(min_length=1, max_length=128)]
# The last seat number of any room; one past a room's own seats is refused by the room.
LAST_SEAT = MAX_PLAYERS - 1


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    @model_validator(mode="before")
    @classmethod
    def _whole_numbers(cls, data: Any) -> Any:
        return whole_numbers(cls, data)


class CreatedRoom(BaseModel):
    code: str
    url: str
    host_token: str


class JoinRoom(Body):
    name: Annotated[str, StringConstraints(max_length=200)] = Field(
        description="1..24 characters after trimming (else 422 name_invalid)",
        json_schema_extra={"pattern": r"\S"},  # checked by the room, with its own code
    )
    seat: int | None = Field(None, ge=0, le=LAST_SEAT, description="null: the first free seat")


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
    seat: int = Field(ge=0, le=LAST_SEAT)


class SetClock(HostOnly):
    clock: Clock | None = Field(  # ClockOption
        description="the new turn clock, within the bounds of the room's mode (else 422 "
        "malformed); null: none")


class SeatBot(HostOnly):
    seat: int | None = Field(None, ge=0, le=LAST_SEAT, description="null: the first free seat")
    level: Literal["random", "greedy", "strong", "expert"] = Field(
        description="random (for tests), greedy (a heuristic), strong (search) or expert "
        "(deeper search)"
    )


class LateChoice(SeatOnly):
    choice: Literal["stand_in", "abandon"] = Field(
        description="stand_in: a bot plays the late player's turn; abandon: the game ends, "
        "recorded as abandoned")


class Away(SeatOnly):
    hours: int = Field(ge=1, le=168, description="hours the player is away (at most 7 days)")


MAX_TURN_SEATS = 50


class MailAddress(Body):
    """An e-mail address and the language of the mail sent to it: a seat's, an account's
    or the one a forgotten password is asked for."""

    address: Annotated[str, StringConstraints(max_length=320)] = Field(
        description="an e-mail address (else 422 address_invalid)")
    lang: Annotated[str, StringConstraints(max_length=8)] = Field(
        "en", description="the mail's language: en, th or ko")


class AddAddress(MailAddress):
    token: Token = Field(description="this seat's seat_token")


class ConfirmAddress(Body):
    token: Token
    code: Annotated[str, StringConstraints(max_length=16)] = Field(
        description="the 6-digit code sent to the address")


class DigestChoice(SeatOnly):
    digest: bool = Field(description="true: one e-mail a day at most, listing your turns")


class SeatRef(Body):
    code: Annotated[str, StringConstraints(max_length=16)]
    token: Token


class TurnsQuery(Body):
    seats: list[SeatRef] = Field(max_length=MAX_TURN_SEATS,
                                 description="the seats this browser holds")


REQUEST_MODELS = (
    CreateRoom, JoinRoom, LeaveRoom, HostOnly, SeatOnly, SeatAction, SeatBot, SetClock,
    LateChoice, Away, AddAddress, ConfirmAddress, DigestChoice, SeatRef, TurnsQuery,
)
RESPONSE_MODELS = (CreatedRoom, Joined)

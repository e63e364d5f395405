"""Request bodies and answers of the account routes (server/api/accounts.py, me.py)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, Field, StringConstraints

from .models import Body

Name = Annotated[str, StringConstraints(max_length=200)]
Password = Annotated[str, StringConstraints(max_length=1000)]


class Empty(Body):
    pass


class AccountName(Body):
    name: Name = Field(description="1..24 characters after trimming; unique by its key")


class SignUp(Body):
    name: Name = Field(description="1..24 characters after trimming; unique by its key")
    password: Password = Field(description="8..256 characters")


class PasswordSignIn(Body):
    name: Name
    password: Password


class PasskeyAnswer(Body):
    credential: dict[str, Any] = Field(
        description="the browser's PublicKeyCredential as JSON (`toJSON()`), base64url fields")


class SetPassword(Body):
    password: Password = Field(description="8..256 characters")
    current: Password | None = Field(None, description="the password now, if there is one")


class DeleteAccount(Body):
    name: Name = Field(description="the account's name, typed again to confirm")


class PasskeyItem(BaseModel):
    id: int
    created_at: str
    last_used_at: str | None


class Me(BaseModel):
    id: int
    name: str
    created_at: str
    password: bool = Field(description="whether the account has a password")
    passkeys: list[PasskeyItem]


class Table(BaseModel):
    code: str = Field(description="the room code, as shown (XXXX-XXXX)")
    status: str = Field(description="waiting or playing")
    seat: int
    name: str = Field(description="the name the seat is held under")
    turn: int | None = Field(description="the seat whose turn it is (null: none, or unknown "
                                         "on this instance of a cluster)")
    your_turn: bool
    left_ms: int | None = Field(None, description="what the seat to act has left of its turn "
                                "and bank, in ms (null: no clock, or not known here)")
    names: list[str | None] | None = Field(None, description="the seats' names (null: not known on "
                                    "this instance; a free seat: null)")
    url: str = Field(description="the table page")
    rejoin: str = Field(description="POST here (signed in, body {}) for a new seat token")


class Tables(BaseModel):
    tables: list[Table]


class Rejoined(BaseModel):
    seat: int
    seat_token: str
    url: str


# docs/PROTOCOL.md's generated schemas (server.ws.schema_doc).
ACCOUNT_REQUEST_MODELS: tuple[type[BaseModel], ...] = (
    SignUp, AccountName, PasswordSignIn, PasskeyAnswer, SetPassword, DeleteAccount)
ACCOUNT_RESPONSE_MODELS: tuple[type[BaseModel], ...] = (Me, Tables, Rejoined)

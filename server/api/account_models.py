"""Request bodies and answers of the account routes (server/api/accounts.py, me.py)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, Field, StringConstraints

from server.accounts.passwords import MAX_LENGTH, MIN_LENGTH

from .models import Body, MailAddress

Name = Annotated[str, StringConstraints(max_length=200)]
Password = Annotated[str, StringConstraints(max_length=1000)]
# What an account's name must be, checked by the accounts with their own codes.
NAME_RULE = ("1..24 characters after trimming, no control characters, something visible "
             "(else 422 name_invalid, invisible_text); a letter or digit among them and no "
             "bot's name (else 422 name_reserved); unique by its key")


def new_password() -> Any:
    """A new password's field: its bounds are the accounts' (checked with their own code)."""
    return Field(description=f"{MIN_LENGTH}..{MAX_LENGTH} characters (else 422 "
                 "password_invalid)",
                 json_schema_extra={"minLength": MIN_LENGTH, "maxLength": MAX_LENGTH})


class Empty(Body):
    pass


class AccountName(Body):
    name: Name = Field(description=NAME_RULE)


class SignUp(Body):
    name: Name = Field(description=NAME_RULE)
    password: Password = new_password()


class PasswordSignIn(Body):
    name: Name
    password: Password


class PasskeyAnswer(Body):
    credential: dict[str, Any] = Field(
        description="the browser's PublicKeyCredential as JSON (`toJSON()`), base64url "
        "fields (else 400 passkey_rejected: what the browser's authenticator answered is "
        "checked against the challenge, beyond what a schema says)")


class SetPassword(Body):
    password: Password = new_password()
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


class ForgotPassword(MailAddress):
    """A link to set a new password, mailed to each account that confirmed `address`."""


class ResetLink(Body):
    token: Annotated[str, StringConstraints(max_length=200)] = Field(
        description="the secret of the mailed link (`#token=` of /account/reset)")


class ResetPassword(ResetLink):
    password: Password = new_password()


class AccountAddressBody(MailAddress):
    """The account's new address, confirmed by the code mailed to it."""


class AddressCode(Body):
    code: Annotated[str, StringConstraints(max_length=16)] = Field(
        description="the 6-digit code mailed to the pending address")


class AddressState(BaseModel):
    state: str = Field(description="none, pending (a code is on its way) or confirmed")
    address: str | None = Field(None, description="the confirmed address, masked")
    pending: str | None = Field(None, description="the address waiting for its code, masked")
    resend_in: int = Field(0, description="seconds before a code may be sent again")


class EndSession(Body):
    session: Annotated[str, StringConstraints(max_length=64)] = Field(
        description="a session's `id` from GET /api/me/sessions")


class SessionItem(BaseModel):
    id: str = Field(description="this list's name for the session (not its cookie)")
    user_agent: str | None
    address: str | None = Field(description="the client address it was opened from")
    created_at: str
    last_seen_at: str
    current: bool = Field(description="the session of this very browser")


class SessionList(BaseModel):
    sessions: list[SessionItem]


ACCOUNT_REQUEST_MODELS += (ForgotPassword, ResetLink, ResetPassword, AccountAddressBody,
                           AddressCode, EndSession)
ACCOUNT_RESPONSE_MODELS += (AddressState, SessionList)

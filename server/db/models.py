"""The tables. The schema itself is created by the Alembic migrations, never by create_all.

A room code hosts exactly one game: a rematch opens a new room with a new code, so
(room_code, seq) identifies an action for ever and replaying the journal is idempotent.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    UniqueConstraint,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship
from sqlalchemy.sql.expression import false
from sqlalchemy.types import TypeDecorator

ROOM_CODE = 8
NAME = 64  # the room layer must cap names at this length
TOKEN_HASH = 64  # sha256 hex
BOT_LEVEL = 32
NAME_KEY = 255  # an account name's confusable-insensitive key (server.accounts.names)
CREDENTIAL_ID = 1400  # a WebAuthn credential id (at most 1023 bytes), base64url
USER_AGENT = 120  # what a session remembers of the browser that opened it
CLIENT_ADDRESS = 64  # a client address as the server sees it (IPv6 at most 45 characters)
ANNOUNCEMENT = 280  # an operator's announcement, at most (server/admin/)

# Room statuses. WAITING and PLAYING rooms are rebuilt at start-up.
WAITING = "waiting"
PLAYING = "playing"
FINISHED = "finished"
ABANDONED = "abandoned"
UNFINISHED = (WAITING, PLAYING)


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp that always comes back timezone-aware (SQLite forgets the zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is not None and value.tzinfo is None:
            raise ValueError("naive datetime: pass an aware UTC timestamp")
        if value is not None and dialect.name == "sqlite":
            return value.astimezone(UTC).replace(tzinfo=None)
        return value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is not None and value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value

    def bind_processor(self, dialect: Dialect) -> Callable[[datetime | None], Any] | None:
        """On SQLite, process_bind_param and the DATETIME text in one step: the journal binds
        a timestamp per action, and the two steps cost three times as much. The text is
        SQLAlchemy's default SQLite storage format (tests/db/test_models.py checks it
        against the two steps)."""
        if dialect.name != "sqlite":
            return super().bind_processor(dialect)

        def process(value: datetime | None) -> str | None:
            if value is None:
                return None
            if value.tzinfo is None:
                raise ValueError("naive datetime: pass an aware UTC timestamp")
            v = value.astimezone(UTC)
            return _SQLITE_DATETIME % (v.year, v.month, v.day, v.hour, v.minute, v.second,
                                       v.microsecond)

        return process


_SQLITE_DATETIME = "%04d-%02d-%02d %02d:%02d:%02d.%06d"


class Seed(TypeDecorator[int]):
    """A 64-bit unsigned seed, stored as decimal text: BIGINT is signed, SQLite REAL is lossy."""

    impl = String(20)
    cache_ok = True

    def process_bind_param(self, value: int | None, dialect: Dialect) -> str | None:
        return None if value is None else str(value)

    def process_result_value(self, value: str | None, dialect: Dialect) -> int | None:
        return None if value is None else int(value)


class Base(DeclarativeBase):
    # Named constraints, so later migrations (batch mode on SQLite) can refer to them.
    metadata = MetaData(naming_convention={
        "ix": "ix_%(table_name)s_%(column_0_N_name)s",
        "uq": "uq_%(table_name)s_%(column_0_N_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    })
    type_annotation_map = {datetime: UTCDateTime, dict[str, Any]: JSON, list[Any]: JSON}


class Room(Base):
    __tablename__ = "rooms"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(ROOM_CODE), unique=True)
    options: Mapped[dict[str, Any]]
    seed: Mapped[int] = mapped_column(Seed)
    rules_version: Mapped[int]
    status: Mapped[str] = mapped_column(String(16), index=True)
    host_token_hash: Mapped[str] = mapped_column(String(TOKEN_HASH))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    started_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]
    host_seat: Mapped[int | None]  # the seat whose token also acts as the host's
    # Cluster mode: the epoch of the instance that owns the room. Each claim raises it, and
    # a journal write that carries an older epoch is refused (fencing).
    owner_epoch: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")

    seats: Mapped[list[RoomSeat]] = relationship(
        back_populates="room", order_by="RoomSeat.seat", lazy="raise",
        cascade="all, delete-orphan", passive_deletes=True,
    )


class RoomSeat(Base):
    __tablename__ = "room_seats"

    room_id: Mapped[int] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME))
    bot: Mapped[str | None] = mapped_column(String(BOT_LEVEL))  # level name; None: a human
    token_hash: Mapped[str | None] = mapped_column(String(TOKEN_HASH))
    # The signed-in player's account (None: a guest or a bot).
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), index=True
    )

    room: Mapped[Room] = relationship(back_populates="seats", lazy="raise")


class JournalEntry(Base):
    """One accepted action of an unfinished game; deleted once the game is saved to `games`."""

    __tablename__ = "journal"

    # The primary key (room, seq) is what makes a double write impossible.
    room_id: Mapped[int] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int | None]
    action: Mapped[dict[str, Any]]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class RoomTalk(Base):
    """Talk of an unfinished room: chat and timeouts (n >= 1), the clock checkpoint (n = 0).
    Deleted once the game is saved to `games` (with its talk) or the room abandoned."""

    __tablename__ = "room_talk"

    room_id: Mapped[int] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    n: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    data: Mapped[dict[str, Any]]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Game(Base):
    """A finished game: everything needed to list it, show its result and replay it.

    A game whose room expired before its end is kept too, with end_reason ABANDONED and
    the standings it had then (no winner); its room's status is ABANDONED."""

    __tablename__ = "games"
    __table_args__ = (Index(None, "ended_at", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_code: Mapped[str] = mapped_column(String(ROOM_CODE), unique=True)
    seed: Mapped[int] = mapped_column(Seed)
    options: Mapped[dict[str, Any]]
    rules_version: Mapped[int]
    actions: Mapped[list[Any]]  # [[seat, action], ...] in order
    action_count: Mapped[int]
    turns: Mapped[int]  # turns per player (R-END: everyone gets the same number)
    end_reason: Mapped[str | None] = mapped_column(String(32))
    result: Mapped[dict[str, Any]]  # the engine's game.result, verbatim
    # Chat messages and clock timeouts, in order (each with `after`: actions played by then).
    talk: Mapped[list[Any]] = mapped_column(default=list, server_default="[]")
    started_at: Mapped[datetime]
    ended_at: Mapped[datetime]

    players: Mapped[list[GamePlayer]] = relationship(
        back_populates="game", order_by="GamePlayer.seat", lazy="raise",
        cascade="all, delete-orphan", passive_deletes=True,
    )


class GamePlayer(Base):
    __tablename__ = "game_players"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME))
    name_key: Mapped[str] = mapped_column(String(NAME), index=True)  # casefolded, for search
    bot: Mapped[str | None] = mapped_column(String(BOT_LEVEL))
    # A player's seat played by a bot of this level when the game ended (they had left).
    stand_in: Mapped[str | None] = mapped_column(String(BOT_LEVEL))
    place: Mapped[int]
    winner: Mapped[bool] = mapped_column(Boolean)
    total: Mapped[int]
    orders: Mapped[int]
    upgrades: Mapped[int]
    penalties: Mapped[int]
    rush: Mapped[int]
    tiles: Mapped[list[Any]]
    # The account of a player who was signed in (None: a guest, a bot, a hard-deleted one).
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), index=True
    )

    game: Mapped[Game] = relationship(back_populates="players", lazy="raise")


# --- optional accounts (server/accounts/) ------------------------------------------------


class Account(Base):
    """A player who signs in. A deleted account keeps its row (`deleted_at`, name freed,
    secrets gone) so the games it played still know it was one player."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME))
    name_key: Mapped[str] = mapped_column(String(NAME_KEY), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    disabled: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    deleted_at: Mapped[datetime | None]
    password_hash: Mapped[str | None] = mapped_column(String(255))
    # Marked by the host (`coffee-rush users operator`): may open /admin (server/admin/).
    operator: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # An operator silenced this account's chat at every table (server/admin/).
    muted: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class AccountName(Base):
    """A name an account had before a rename (or when it was deleted), and until when. The
    last NAMES_HELD of an account are held for NAME_HOLD_DAYS (server.accounts.limits): no
    other account or guest may take them; the owner may take them back."""

    __tablename__ = "account_names"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(String(NAME))
    # The old name's key (server.accounts.names): held, so nobody else may take it.
    name_key: Mapped[str] = mapped_column(String(NAME_KEY), index=True)
    until: Mapped[datetime]


class SignUp(Base):
    """An account made, from which client address and when: at most SIGN_UPS_PER_ADDRESS
    per SIGN_UP_WINDOW_HOURS (server.accounts.limits). Not linked to the account: it says
    only that an address made one."""

    __tablename__ = "sign_ups"
    __table_args__ = (Index(None, "client", "at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    client: Mapped[str] = mapped_column(String(160))
    at: Mapped[datetime]


class Passkey(Base):
    __tablename__ = "passkeys"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    credential_id: Mapped[str] = mapped_column(String(CREDENTIAL_ID), unique=True)
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    public_key: Mapped[bytes] = mapped_column(LargeBinary)
    sign_count: Mapped[int] = mapped_column(BigInteger, default=0)
    transports: Mapped[list[Any]] = mapped_column(default=list)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    last_used_at: Mapped[datetime | None]


class AccountSession(Base):
    """A signed-in browser: `id` is the sha256 hex of its cookie's secret."""

    __tablename__ = "account_sessions"

    id: Mapped[str] = mapped_column(String(TOKEN_HASH), primary_key=True)
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    last_seen_at: Mapped[datetime]
    expires_at: Mapped[datetime] = mapped_column(index=True)
    user_agent: Mapped[str | None] = mapped_column(String(USER_AGENT))
    # The client address it was opened from (shown to its owner in the sessions list).
    address: Mapped[str | None] = mapped_column(String(CLIENT_ADDRESS))


class AuthChallenge(Base):
    """A WebAuthn challenge between begin and finish: kept in the database (any instance
    of a cluster may get the finish), consumed once, dead after a few minutes."""

    __tablename__ = "auth_challenges"

    id: Mapped[str] = mapped_column(String(TOKEN_HASH), primary_key=True)  # sha256 hex
    purpose: Mapped[str] = mapped_column(String(16))  # sign_up, add_passkey, sign_in
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE")
    )
    data: Mapped[dict[str, Any]]  # what the finish needs (the name asked for, the user id)
    expires_at: Mapped[datetime] = mapped_column(index=True)


class SignInAttempt(Base):
    """A failed password sign-in, counted per (account, address) pair (rate limit)."""

    __tablename__ = "sign_in_attempts"
    __table_args__ = (Index(None, "key", "at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(160))  # "account:<id> address:<ip>"
    at: Mapped[datetime]


# --- ratings (server.db.ratings) ---------------------------------------------------------


class PlayerRating(Base):
    """An account's current rating: the `after` of its last rated game (server.db.ratings)."""

    __tablename__ = "player_ratings"

    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    mu: Mapped[float]
    sigma: Mapped[float]
    games: Mapped[int]  # rated games played
    updated_at: Mapped[datetime]


class GameRating(Base):
    """An account's rating before and after one rated game, so ratings can be recomputed
    from history and drawn over time."""

    __tablename__ = "game_ratings"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    mu_before: Mapped[float]
    sigma_before: Mapped[float]
    mu_after: Mapped[float]
    sigma_after: Mapped[float]
# --- e-mail (server.notify) -----------------------------------------------------------------

ADDRESS = 254  # the longest usable e-mail address (RFC 5321 path limit)


class SeatAddress(Base):
    """The e-mail address a player of a turn-based room gave for their seat, its
    confirmation state and its unsubscribe key. Never shown to anyone but that seat's
    player; deleted with the room's game record when the room is forgotten."""

    __tablename__ = "seat_addresses"
    __table_args__ = (UniqueConstraint("room_code", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_code: Mapped[str] = mapped_column(String(ROOM_CODE))
    seat: Mapped[int]
    address: Mapped[str] = mapped_column(String(ADDRESS), index=True)
    lang: Mapped[str] = mapped_column(String(8))
    # The seat token the player gave (their own link back to the seat), kept only while an
    # address is subscribed: the one place a seat token is stored (see server/notify).
    seat_link: Mapped[str | None] = mapped_column(String(128))
    confirmed_at: Mapped[datetime | None]
    code_hash: Mapped[str | None] = mapped_column(String(TOKEN_HASH))  # sha256, never the code
    code_expires_at: Mapped[datetime | None]
    code_tries: Mapped[int] = mapped_column(Integer, default=0)
    codes_sent: Mapped[int] = mapped_column(Integer, default=0)  # since window_at
    window_at: Mapped[datetime | None]
    last_code_at: Mapped[datetime | None]
    unsub_key: Mapped[str] = mapped_column(String(TOKEN_HASH))  # signs the unsubscribe link
    unsubscribed_at: Mapped[datetime | None]
    # A daily digest instead of a message per turn; when this address last got one.
    digest: Mapped[bool] = mapped_column(Boolean, default=False)
    digest_at: Mapped[datetime | None]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class CodeRequest(Base):
    """A confirmation code asked for, by which client address and when: at most
    server.notify.addresses.MAX_CODES_PER_CLIENT in CLIENT_WINDOW (a flood of "send the
    code" from one address, whatever seats and e-mail addresses it uses)."""

    __tablename__ = "code_requests"
    __table_args__ = (Index(None, "client", "at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    client: Mapped[str] = mapped_column(String(160))
    at: Mapped[datetime]


class CodeSend(Base):
    """A confirmation code sent, to which mailbox (the sha256 of its canonical spelling,
    server.notify.addresses.mailbox) and when: at most MAX_CODES_PER_MAILBOX in
    CODES_WINDOW, whatever tables, seats and client addresses asked. Kept a day."""

    __tablename__ = "code_sends"
    __table_args__ = (Index(None, "mailbox", "at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    mailbox: Mapped[str] = mapped_column(String(TOKEN_HASH))
    at: Mapped[datetime]


class AccountAddress(Base):
    """An account's e-mail address, where a forgotten password's link goes: `address` once
    confirmed with a code sent to it (server/notify/account_mail.py), `pending` while a new
    one waits for its code (the confirmed one still works meanwhile). Shown to its owner
    only; never exported to anyone else, never logged."""

    __tablename__ = "account_addresses"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), unique=True)
    address: Mapped[str | None] = mapped_column(String(ADDRESS))
    # `address` in lower case: what a "forgot password" request is matched on.
    address_key: Mapped[str | None] = mapped_column(String(ADDRESS), index=True)
    confirmed_at: Mapped[datetime | None]
    pending: Mapped[str | None] = mapped_column(String(ADDRESS))
    lang: Mapped[str] = mapped_column(String(8))
    code_hash: Mapped[str | None] = mapped_column(String(TOKEN_HASH))
    code_expires_at: Mapped[datetime | None]
    code_tries: Mapped[int] = mapped_column(Integer, default=0)
    codes_sent: Mapped[int] = mapped_column(Integer, default=0)  # since window_at
    window_at: Mapped[datetime | None]
    last_code_at: Mapped[datetime | None]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class PasswordReset(Base):
    """A "forgot password" link: only the sha256 of its secret is kept; good once
    (`used_at`), until `expires_at` (server/accounts/resets.py)."""

    __tablename__ = "password_resets"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(TOKEN_HASH), unique=True)
    created_at: Mapped[datetime]
    expires_at: Mapped[datetime]
    used_at: Mapped[datetime | None]


class MailOutbox(Base):
    """A message to send: written once per `key` (a turn mail's key is its room, the journal
    seq that made it the seat's turn and the seat), claimed by one sender at a time."""

    __tablename__ = "mail_outbox"
    __table_args__ = (Index(None, "status", "next_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(96), unique=True)
    # "turn" | "code" | "late" | "digest"; an account's: "account_code" | "reset"
    kind: Mapped[str] = mapped_column(String(16))
    room_code: Mapped[str | None] = mapped_column(String(ROOM_CODE))
    seat: Mapped[int]
    seq: Mapped[int] = mapped_column(Integer, default=0)
    # A seat's mail names its address; an account's (a confirmation code, a password reset
    # link) its account address, and no room.
    address_id: Mapped[int | None] = mapped_column(
        ForeignKey("seat_addresses.id", ondelete="CASCADE"), index=True)
    account_address_id: Mapped[int | None] = mapped_column(
        ForeignKey("account_addresses.id", ondelete="CASCADE"), index=True)
    payload: Mapped[dict[str, Any] | None]
    # pending | sent | dropped; a digest address's turns: held, then digested
    status: Mapped[str] = mapped_column(String(16))
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_at: Mapped[datetime]
    claimed_by: Mapped[str | None] = mapped_column(String(96))
    claimed_until: Mapped[datetime | None]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    sent_at: Mapped[datetime | None]


class OperatorAction(Base):
    """What an operator (or the host's CLI: `account_id` None) did, when, to what: the audit
    trail of /admin, and the feed every instance of a cluster follows (server/admin/feed.py:
    an announcement, a mute, a disabled account's sockets). Kept for good."""

    __tablename__ = "operator_actions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"))
    # announce | close_room | disable | enable | mute | unmute | operator | not_operator
    action: Mapped[str] = mapped_column(String(16))
    target: Mapped[str | None] = mapped_column(String(NAME))  # a room code, an account "#12"
    detail: Mapped[str | None] = mapped_column(String(ANNOUNCEMENT))


class GameReview(Base):
    """The expert's review of a finished game (server/bots/review.py), computed once: the
    row is the claim (server/db/reviews.py), so two instances never compute one review."""

    __tablename__ = "game_reviews"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    state: Mapped[str] = mapped_column(String(16), index=True)  # queued|running|done|failed
    claimed_by: Mapped[str | None] = mapped_column(String(64))
    claimed_at: Mapped[datetime | None]
    work: Mapped[float] = mapped_column(Float)
    seed: Mapped[int]
    computed: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    review: Mapped[dict[str, Any] | None]
    asked_at: Mapped[datetime]
    done_at: Mapped[datetime | None]


class Seek(Base):
    """A player waiting to be seated by quick play (server.quickplay), shared by every
    instance. `player` is the account ("a:<id>") or the guest's socket ("g:<random>"): one
    seek per player. The instance holding the player's socket keeps `alive_at` fresh; a seek
    not renewed for a few seconds is gone. The matcher claims rows (`claim`, `claimed_at`)
    before it seats them, then writes the table's `room_code` and the `seat`; the instance
    holding the socket hands the seat token (it keeps the token, the row only its hash) and
    deletes the row."""

    __tablename__ = "seeks"
    __table_args__ = (Index(None, "client"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player: Mapped[str] = mapped_column(String(40), unique=True)
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(NAME))
    rating: Mapped[int | None]
    client: Mapped[str] = mapped_column(String(160))
    size: Mapped[int]  # 2, 3 or 4 players; 0: any
    mode: Mapped[str] = mapped_column(String(16))
    rated: Mapped[bool] = mapped_column(Boolean)
    bots_after: Mapped[int | None]  # seconds of waiting before bots fill the table
    join_id: Mapped[int | None]  # the seek this one joined from the lobby's list
    token_hash: Mapped[str] = mapped_column(String(TOKEN_HASH))
    instance: Mapped[str] = mapped_column(String(96))
    created_at: Mapped[datetime]
    alive_at: Mapped[datetime]
    claim: Mapped[str | None] = mapped_column(String(32))
    claimed_at: Mapped[datetime | None]
    room_code: Mapped[str | None] = mapped_column(String(ROOM_CODE))
    seat: Mapped[int | None]


# --- tournaments (server/tournaments/) ---------------------------------------------------


class Tournament(Base):
    """A tournament (server.tournaments): what the organiser chose, and how far it got.
    `round` is the last round paired: the scheduler moves it on with an UPDATE guarded by
    its old value (and `tournament_rounds` is unique per round), so a round is never paired
    twice, whichever instance gets there. `invite` (None: open to everyone) is the secret
    of the invite link; `entrants` counts the players entered (an UPDATE guarded by the
    status, so nobody enters once it started)."""

    __tablename__ = "tournaments"
    __table_args__ = (Index(None, "status", "starts_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME))
    organiser_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), index=True)
    system: Mapped[str] = mapped_column(String(16))  # swiss, round_robin
    table_size: Mapped[int]
    rounds: Mapped[int]  # a round robin's is set when it starts (the field decides it)
    mode: Mapped[str] = mapped_column(String(16))  # realtime, turn_based
    turn: Mapped[int]  # the tables' clock: seconds per turn
    bank: Mapped[int]  # and seconds of bank per seat
    rated: Mapped[bool] = mapped_column(Boolean)
    invite: Mapped[str | None] = mapped_column(String(32))
    starts_at: Mapped[datetime]
    status: Mapped[str] = mapped_column(String(16))  # open, running, finished, cancelled
    round: Mapped[int] = mapped_column(default=0, server_default="0")
    entrants: Mapped[int] = mapped_column(default=0, server_default="0")
    client: Mapped[str] = mapped_column(String(160))
    created_at: Mapped[datetime]
    finished_at: Mapped[datetime | None]


class TournamentPlayer(Base):
    """A player entered in a tournament (an account; `entry` is the entry order, the last
    tie-break). A withdrawn player is paired no more and keeps the points already won."""

    __tablename__ = "tournament_players"

    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True, index=True)
    name: Mapped[str] = mapped_column(String(NAME))
    entry: Mapped[int]
    client: Mapped[str] = mapped_column(String(160))
    joined_at: Mapped[datetime]
    withdrawn_at: Mapped[datetime | None]


class TournamentRound(Base):
    """A round paired: one row per (tournament, number), written in the transaction that
    writes its tables (the unique constraint is the last guard against a second pairing)."""

    __tablename__ = "tournament_rounds"
    __table_args__ = (UniqueConstraint("tournament_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    number: Mapped[int]
    started_at: Mapped[datetime]
    finished_at: Mapped[datetime | None]


class TournamentTable(Base):
    """One table of a round: its players (account ids, in seat order) and, once its game
    is over, each seat's place and points (in halves). A table of one player is a bye,
    scored when it is paired. The instance that opens its room claims it first (`claim`,
    `claimed_at`, an UPDATE guarded by `room_code IS NULL`); a claim its instance never
    finished is taken back after a while."""

    __tablename__ = "tournament_tables"
    __table_args__ = (UniqueConstraint("tournament_id", "round", "number"),
                      Index(None, "room_code"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    round: Mapped[int]
    number: Mapped[int]
    players: Mapped[list[Any]]
    room_code: Mapped[str | None] = mapped_column(String(ROOM_CODE))
    claim: Mapped[str | None] = mapped_column(String(32))
    claimed_at: Mapped[datetime | None]
    # None is SQL NULL here (not JSON null): `points IS NULL` is a table still to end.
    places: Mapped[list[Any] | None] = mapped_column(JSON(none_as_null=True))
    points: Mapped[list[Any] | None] = mapped_column(JSON(none_as_null=True))
    finished_at: Mapped[datetime | None]

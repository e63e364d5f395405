"""The accounts' queries. Each takes an AsyncSession; the caller owns the transaction.
Plain values come out (AccountInfo, PasskeyInfo, ...), never ORM objects."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, bindparam, delete, exists, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from server.db.models import (
    UNFINISHED,
    Account,
    AccountAddress,
    AccountName,
    AccountSession,
    AuthChallenge,
    Game,
    GamePlayer,
    GameRating,
    Passkey,
    PasswordReset,
    PlayerRating,
    Room,
    RoomSeat,
    SignInAttempt,
    SignUp,
)
from server.db.ratings import shown, shown_spread


@dataclass(frozen=True, slots=True)
class AccountInfo:
    id: int
    name: str
    created_at: datetime
    disabled: bool
    deleted: bool
    password_hash: str | None

    @property
    def usable(self) -> bool:
        """May sign in and act (neither disabled by the host nor deleted)."""
        return not (self.disabled or self.deleted)


@dataclass(frozen=True, slots=True)
class PasskeyInfo:
    id: int
    credential_id: str
    account_id: int
    public_key: bytes
    sign_count: int
    transports: tuple[str, ...]
    created_at: datetime
    last_used_at: datetime | None


@dataclass(frozen=True, slots=True)
class OpenSeat:
    room_code: str
    status: str
    seat: int
    name: str


def _account(a: Account) -> AccountInfo:
    return AccountInfo(a.id, a.name, a.created_at, a.disabled, a.deleted_at is not None,
                       a.password_hash)


def _passkey(p: Passkey) -> PasskeyInfo:
    return PasskeyInfo(p.id, p.credential_id, p.account_id, p.public_key, p.sign_count,
                       tuple(p.transports or ()), p.created_at, p.last_used_at)


# --- accounts ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NameHold:
    """Which old names stay their account's: its last `names`, each for `hold` after it
    was left (a deleted account's last name too)."""

    names: int
    hold: timedelta


# Whether an account has the name key `key`, or had it as an old name until `since` or
# later. Built once with bind parameters: every guest's join asks it, and making the
# statement anew each time (the select, its cache key) cost ~3/4 of the check's CPU
# (SQLite through the reader's thread: ~360-470 -> ~110 µs a check, issue 42).
_KEY_TAKEN = select(or_(
    exists().where(Account.name_key == bindparam("key")),
    exists().where(AccountName.name_key == bindparam("key"),
                   AccountName.until >= bindparam("since"))))


async def key_taken(session: AsyncSession | AsyncConnection, key: str, hold: NameHold,
                    now: datetime) -> bool:
    """Whether an account has this name key now, or holds it still (`holder`). One
    statement when no account has or had it lately: every guest's join asks this, and each
    round trip to the database costs the event loop ~0.5 ms of CPU on SQLite (issue 42);
    which old names are still held is asked only of a name that matches one. A plain
    connection will do (server.api.account_session.read)."""
    if not await session.scalar(_KEY_TAKEN, {"key": key, "since": now - hold.hold}):
        return False
    return await holder(session, key, hold, now) is not None


async def holder(session: AsyncSession | AsyncConnection, key: str, hold: NameHold,
                 now: datetime) -> int | None:
    """The account that has this name key now, else one that holds it as one of its last
    `hold.names` old names, left less than `hold.hold` ago."""
    found = await session.scalar(select(Account.id).where(Account.name_key == key))
    if found is not None or hold.names <= 0:
        return found
    rows = await session.execute(select(AccountName.id, AccountName.account_id,
                                        AccountName.until)
                                 .where(AccountName.name_key == key,
                                        AccountName.until >= now - hold.hold))
    for row in rows.all():
        newer = await session.scalar(select(func.count()).select_from(AccountName).where(
            AccountName.account_id == row.account_id,
            (AccountName.until > row.until)
            | ((AccountName.until == row.until) & (AccountName.id > row.id))))
        if (newer or 0) < hold.names:
            return int(row.account_id)
    return None


async def renames(session: AsyncSession, account_id: int, since: datetime) -> int:
    """How many times the account was renamed since `since` (each left an old name)."""
    return await session.scalar(select(func.count()).select_from(AccountName).where(
        AccountName.account_id == account_id, AccountName.until >= since)) or 0


async def sign_ups(session: AsyncSession, client: str, since: datetime) -> int:
    return await session.scalar(select(func.count()).select_from(SignUp).where(
        SignUp.client == client[:160], SignUp.at >= since)) or 0


async def add_sign_up(session: AsyncSession, client: str, now: datetime,
                      forget_before: datetime) -> None:
    """Note an account made from `client`; rows older than `forget_before` go."""
    await session.execute(delete(SignUp).where(SignUp.at < forget_before))
    session.add(SignUp(client=client[:160], at=now))
    await session.flush()


async def create_account(session: AsyncSession, name: str, key: str,
                         password_hash: str | None, now: datetime) -> int:
    """A new account (IntegrityError if its key is taken: the caller checked it before,
    this is the race)."""
    account = Account(name=name, name_key=key, password_hash=password_hash, created_at=now,
                      disabled=False)
    session.add(account)
    await session.flush()
    return account.id


async def get_account(session: AsyncSession, account_id: int) -> AccountInfo | None:
    account = await session.get(Account, account_id)
    return None if account is None else _account(account)


async def account_by_key(session: AsyncSession, key: str) -> AccountInfo | None:
    account = await session.scalar(select(Account).where(Account.name_key == key))
    return None if account is None else _account(account)


async def accounts(session: AsyncSession) -> list[AccountInfo]:
    return [_account(a) for a in await session.scalars(select(Account).order_by(Account.id))]


async def rename(session: AsyncSession, account_id: int, name: str, key: str,
                 now: datetime) -> None:
    """The account takes `name`; its old name is kept in account_names (history), and
    held: no one else may take it (`holder`)."""
    old = (await session.execute(select(Account.name, Account.name_key)
                                 .where(Account.id == account_id))).first()
    if old is None:
        return
    session.add(AccountName(account_id=account_id, name=old.name, name_key=old.name_key,
                            until=now))
    await session.execute(update(Account).where(Account.id == account_id)
                          .values(name=name, name_key=key))


async def old_names(session: AsyncSession, account_id: int) -> list[tuple[str, datetime]]:
    rows = await session.execute(select(AccountName.name, AccountName.until)
                                 .where(AccountName.account_id == account_id)
                                 .order_by(AccountName.until, AccountName.id))
    return [(r.name, r.until) for r in rows]


async def set_password(session: AsyncSession, account_id: int, password_hash: str) -> None:
    await session.execute(update(Account).where(Account.id == account_id)
                          .values(password_hash=password_hash))


async def set_disabled(session: AsyncSession, account_id: int, disabled: bool) -> None:
    """A disabled account cannot sign in; its open sessions end now."""
    await session.execute(update(Account).where(Account.id == account_id)
                          .values(disabled=disabled))
    if disabled:
        await end_sessions(session, account_id)


async def delete_account(session: AsyncSession, account_id: int, now: datetime) -> None:
    """The account is gone for its owner: its name is left (a key no name can have: keys
    hold no spaces) and held a while as an old name (`holder`), so nobody passes for the
    player just gone; password, passkeys, sessions, other old names and pending challenges
    dropped. The row stays, marked deleted, so the games it played still count as one
    player's."""
    last = (await session.execute(select(Account.name, Account.name_key)
                                  .where(Account.id == account_id))).first()
    await session.execute(update(Account).where(Account.id == account_id).values(
        name="", name_key=f"deleted {account_id}", password_hash=None, deleted_at=now))
    for model in (Passkey, AccountSession, AccountName, AuthChallenge, AccountAddress,
                  PasswordReset):
        await session.execute(delete(model).where(model.account_id == account_id))
    if last is not None and last.name:
        session.add(AccountName(account_id=account_id, name=last.name,
                                name_key=last.name_key, until=now))


async def gone(session: AsyncSession, account_ids: Iterable[int]) -> set[int]:
    """Those of `account_ids` that are disabled or deleted."""
    ids = sorted(set(account_ids))
    if not ids:
        return set()
    return set(await session.scalars(select(Account.id).where(
        Account.id.in_(ids), (Account.disabled.is_(True)) | (Account.deleted_at.is_not(None)))))


async def email_of(session: AsyncSession, account_id: int) -> dict[str, Any] | None:
    """The account's e-mail address as its owner's export shows it (None: none)."""
    row = await session.scalar(select(AccountAddress).where(
        AccountAddress.account_id == account_id))
    if row is None:
        return None
    return {"address": row.address, "pending": row.pending, "lang": row.lang,
            "confirmed_at": None if row.confirmed_at is None else row.confirmed_at.isoformat()}


# --- passkeys ----------------------------------------------------------------------------


async def add_passkey(session: AsyncSession, account_id: int, credential_id: str,
                      public_key: bytes, sign_count: int, transports: Sequence[str],
                      now: datetime) -> None:
    session.add(Passkey(account_id=account_id, credential_id=credential_id,
                        public_key=public_key, sign_count=sign_count,
                        transports=list(transports), created_at=now))
    await session.flush()


async def passkey(session: AsyncSession, credential_id: str) -> PasskeyInfo | None:
    found = await session.scalar(select(Passkey).where(Passkey.credential_id == credential_id))
    return None if found is None else _passkey(found)


async def passkeys_of(session: AsyncSession, account_id: int) -> list[PasskeyInfo]:
    return [_passkey(p) for p in await session.scalars(
        select(Passkey).where(Passkey.account_id == account_id).order_by(Passkey.id))]


async def passkey_used(session: AsyncSession, passkey_id: int, sign_count: int,
                       now: datetime) -> None:
    await session.execute(update(Passkey).where(Passkey.id == passkey_id)
                          .values(sign_count=sign_count, last_used_at=now))


# --- WebAuthn challenges -----------------------------------------------------------------


async def put_challenge(session: AsyncSession, challenge_id: str, purpose: str,
                        account_id: int | None, data: dict[str, Any], expires_at: datetime,
                        now: datetime) -> None:
    await session.execute(delete(AuthChallenge).where(AuthChallenge.expires_at < now))
    session.add(AuthChallenge(id=challenge_id, purpose=purpose, account_id=account_id,
                              data=data, expires_at=expires_at))
    await session.flush()


async def take_challenge(session: AsyncSession, challenge_id: str, purpose: str,
                         now: datetime) -> tuple[int | None, dict[str, Any]] | None:
    """Consume a challenge: (account_id, data), or None if it is unknown, used, of another
    purpose or expired. Deleted either way, so it can never be answered twice."""
    row = await session.get(AuthChallenge, challenge_id)
    if row is None:
        return None
    taken = await session.execute(delete(AuthChallenge).where(AuthChallenge.id == challenge_id))
    if getattr(taken, "rowcount", 1) != 1 or row.purpose != purpose or row.expires_at < now:
        return None
    return row.account_id, dict(row.data)


# --- sessions ----------------------------------------------------------------------------


async def add_session(session: AsyncSession, session_id: str, account_id: int, now: datetime,
                      expires_at: datetime, user_agent: str | None,
                      address: str | None = None) -> None:
    session.add(AccountSession(id=session_id, account_id=account_id, created_at=now,
                               last_seen_at=now, expires_at=expires_at, user_agent=user_agent,
                               address=address))
    await session.flush()


async def session_row(session: AsyncSession,
                      session_id: str) -> tuple[int, datetime, datetime] | None:
    """(account_id, last_seen_at, expires_at) of a session."""
    row = (await session.execute(
        select(AccountSession.account_id, AccountSession.last_seen_at,
               AccountSession.expires_at).where(AccountSession.id == session_id))).first()
    return None if row is None else (row.account_id, row.last_seen_at, row.expires_at)


async def touch_session(session: AsyncSession, session_id: str, now: datetime) -> None:
    await session.execute(update(AccountSession).where(AccountSession.id == session_id)
                          .values(last_seen_at=now))


async def end_session(session: AsyncSession, session_id: str) -> None:
    await session.execute(delete(AccountSession).where(AccountSession.id == session_id))


async def end_sessions(session: AsyncSession, account_id: int, keep: str | None = None) -> None:
    """End an account's sessions (all but `keep`)."""
    stmt = delete(AccountSession).where(AccountSession.account_id == account_id)
    if keep is not None:
        stmt = stmt.where(AccountSession.id != keep)
    await session.execute(stmt)


async def drop_expired_sessions(session: AsyncSession, now: datetime) -> None:
    await session.execute(delete(AccountSession).where(AccountSession.expires_at < now))


async def sessions_of(session: AsyncSession,
                      account_id: int) -> list[tuple[datetime, datetime, str | None]]:
    rows = await session.execute(
        select(AccountSession.created_at, AccountSession.last_seen_at, AccountSession.user_agent)
        .where(AccountSession.account_id == account_id).order_by(AccountSession.created_at))
    return [(r.created_at, r.last_seen_at, r.user_agent) for r in rows]


@dataclass(frozen=True, slots=True)
class SessionInfo:
    id: str  # the sha256 of the cookie's secret (never shown: see sessions.handle)
    created_at: datetime
    last_seen_at: datetime
    user_agent: str | None
    address: str | None


async def open_sessions(session: AsyncSession, account_id: int,
                        now: datetime) -> list[SessionInfo]:
    """The account's live sessions, the last seen first."""
    rows = await session.execute(
        select(AccountSession.id, AccountSession.created_at, AccountSession.last_seen_at,
               AccountSession.user_agent, AccountSession.address)
        .where(AccountSession.account_id == account_id, AccountSession.expires_at > now)
        .order_by(AccountSession.last_seen_at.desc(), AccountSession.created_at.desc()))
    return [SessionInfo(r.id, r.created_at, r.last_seen_at, r.user_agent, r.address)
            for r in rows]


async def session_ids(session: AsyncSession, ids: Iterable[str]) -> set[str]:
    """Those of `ids` that are still sessions (not signed out, not ended)."""
    wanted = sorted(set(ids))
    if not wanted:
        return set()
    return set(await session.scalars(select(AccountSession.id).where(
        AccountSession.id.in_(wanted))))


# --- failed sign-ins (rate limit) --------------------------------------------------------


async def failures_before(session: AsyncSession, key: str, since: datetime,
                          but: int) -> tuple[int, datetime | None]:
    """How many failures `key` has had since `since` (the row `but` aside), and the last
    one's time."""
    row = (await session.execute(
        select(func.count(), func.max(SignInAttempt.at)).select_from(SignInAttempt)
        .where(SignInAttempt.key == key, SignInAttempt.at >= since,
               SignInAttempt.id != but))).one()
    return row[0] or 0, row[1]


async def add_failures(session: AsyncSession, keys: Iterable[str], now: datetime) -> list[int]:
    """One sign-in attempt under each key (a failure unless taken back); the rows' ids."""
    rows = [SignInAttempt(key=key, at=now) for key in keys]
    session.add_all(rows)
    await session.flush()
    return [row.id for row in rows]


LIMIT_LOCKS = 0x53494E  # the advisory lock class of sign-in keys (PostgreSQL)


async def lock_keys(session: AsyncSession, keys: Iterable[str]) -> None:
    """PostgreSQL: a transaction advisory lock per key (in order: no deadlock), so attempts
    under one key are written and counted one after another across instances. SQLite
    needs none: one server owns the file, and it takes them in turn in memory."""
    if session.get_bind().dialect.name != "postgresql":
        return
    for key in sorted(set(keys)):
        await session.execute(select(func.pg_advisory_xact_lock(LIMIT_LOCKS,
                                                                func.hashtext(key))))


async def drop_old_failures(session: AsyncSession, before: datetime) -> None:
    await session.execute(delete(SignInAttempt).where(SignInAttempt.at < before))


async def drop_failures(session: AsyncSession, ids: Iterable[int]) -> None:
    await session.execute(delete(SignInAttempt).where(SignInAttempt.id.in_(list(ids))))


async def clear_failures(session: AsyncSession, key: str) -> None:
    await session.execute(delete(SignInAttempt).where(SignInAttempt.key == key))


# --- tables and games --------------------------------------------------------------------


async def open_seats(session: AsyncSession, account_id: int) -> list[OpenSeat]:
    """The seats the account holds in unfinished rooms, oldest room first."""
    rows = await session.execute(
        select(Room.code, Room.status, RoomSeat.seat, RoomSeat.name)
        .join(RoomSeat, RoomSeat.room_id == Room.id)
        .where(RoomSeat.account_id == account_id, Room.status.in_(UNFINISHED))
        .order_by(Room.id))
    return [OpenSeat(r.code, r.status, r.seat, r.name) for r in rows]


def rating_json(mu: float, sigma: float) -> dict[str, Any]:
    """A rating as the profile shows it (`value` ± `spread`) and as it is kept."""
    return {"value": shown(mu), "spread": shown_spread(sigma), "mu": mu, "sigma": sigma}


async def rating_of(session: AsyncSession, account_id: int) -> dict[str, Any] | None:
    """The account's current rating and its count of rated games (None: never rated)."""
    current = await session.get(PlayerRating, account_id)
    if current is None:
        return None
    return {**rating_json(current.mu, current.sigma), "rated_games": current.games}


async def games_of(session: AsyncSession, account_id: int) -> list[dict[str, Any]]:
    """The account's own line of each game it played, with how a rated game moved its
    rating (`rating`: before and after; null: not rated): never another player's."""
    rated = and_(GameRating.game_id == Game.id, GameRating.seat == GamePlayer.seat)
    rows = await session.execute(
        select(Game.id, Game.room_code, Game.started_at, Game.ended_at, Game.end_reason,
               GamePlayer.seat, GamePlayer.name, GamePlayer.place, GamePlayer.winner,
               GamePlayer.total, GameRating.mu_before, GameRating.sigma_before,
               GameRating.mu_after, GameRating.sigma_after)
        .join(GamePlayer, GamePlayer.game_id == Game.id)
        .outerjoin(GameRating, rated)
        .where(GamePlayer.account_id == account_id).order_by(Game.ended_at, Game.id))
    return [{"game": r.id, "room": r.room_code, "started_at": r.started_at.isoformat(),
             "ended_at": r.ended_at.isoformat(), "end_reason": r.end_reason, "seat": r.seat,
             "name": r.name, "place": r.place, "winner": r.winner, "total": r.total,
             "rating": None if r.mu_before is None else {
                 "before": rating_json(r.mu_before, r.sigma_before),
                 "after": rating_json(r.mu_after, r.sigma_after)}}
            for r in rows]

"""A seat's e-mail address: added by its player, confirmed with a code sent to it,
unsubscribed with a link signed for that address only.

- The code is 6 digits, kept as a hash, valid CODE_TTL, good for one confirmation and
  MAX_TRIES guesses; then a new one must be sent.
- "Send the code again" waits RESEND_GAP after the last code, and at most MAX_CODES codes
  go to one seat in CODES_WINDOW (a seat cannot be used to mail-bomb an address), at most
  MAX_CODES_PER_MAILBOX to one mailbox from every table, seat and client together (counted
  in `code_sends` on the mailbox however it is spelled: `mailbox`), and one client address
  asks for at most MAX_CODES_PER_CLIENT in CLIENT_WINDOW, whatever seats and addresses it
  uses (`code_flood`; counted in `code_requests`). Both counts are taken one at a time
  (per mailbox, then per client), so a burst cannot pass either limit.
- The unsubscribe token is `<row id>.<HMAC of the id and address under the row's own key>`:
  a link for another address (another id, or an altered one) does not verify.

Refusals are RoomErrors with registered codes (server/error_codes.py). The address itself
is never logged or shown to anyone but the seat's player (masked in `status`).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
import secrets
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.db.errors import waited_too_long
from server.db.models import ADDRESS, AccountAddress, CodeRequest, CodeSend, SeatAddress
from server.rooms import RoomError

from . import outbox
from .strings import lang_of

log = logging.getLogger(__name__)

CODE_TTL = timedelta(minutes=15)
MAX_TRIES = 5
RESEND_GAP = timedelta(seconds=60)
MAX_CODES = 5
# Whatever tables, seats and clients ask: a mailbox is no target for a flood (the limit the
# docs give, README and PROTOCOL.md).
MAX_CODES_PER_MAILBOX = 5
CODES_WINDOW = timedelta(hours=24)
# Whatever seats and addresses it uses, one client address asks for so many codes an hour:
# a host's server is no tool for a flood (code_flood).
MAX_CODES_PER_CLIENT = 20
CLIENT_WINDOW = timedelta(hours=1)

_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_ADDRESS = re.compile(r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@" + _LABEL + r"(?:\." + _LABEL
                      + r")+")

Wall = Callable[[], datetime]
T = TypeVar("T")
MailRefused = RoomError  # every refusal here is a coded RoomError


def normalize(address: str) -> str:
    """The address as kept (domain in lower case, an international domain in its ASCII
    form: "bücher.example" is "xn--bcher-kva.example"); RoomError `address_invalid` if it is
    not one (local@domain.tld, at most 254 characters), `address_not_ascii` if the part
    before the @ has non-ASCII letters: the mailer speaks plain SMTP, without SMTPUTF8,
    which such an address needs."""
    text = address.strip() if isinstance(address, str) else ""
    local, at, domain = text.rpartition("@")
    if at and local and domain and not local.isascii():
        raise RoomError("address_not_ascii", "this server can only mail addresses whose part "
                        "before the @ is plain ASCII letters, digits and signs", 422)
    if at and not domain.isascii():
        try:
            text = f"{local}@{domain.encode('idna').decode('ascii')}"
        except UnicodeError:
            text = ""
    if len(text) > ADDRESS or not _ADDRESS.fullmatch(text) or ".." in text:
        raise RoomError("address_invalid", "that is not an e-mail address (name@example.org)",
                        422)
    local, domain = text.rsplit("@", 1)
    return f"{local}@{domain.lower()}"


GMAIL = frozenset({"gmail.com", "googlemail.com"})


def mailbox(address: str) -> str:
    """The mailbox an address reaches, as the code cap counts it: all in lower case (the
    domain is; the big providers' local parts are too), a `+tag` dropped from the local
    part, and for gmail.com and googlemail.com (one service) the dots too. A provider that
    tells case or dots apart loses nothing but a few codes a day to a shared count."""
    local, _, domain = address.strip().lower().rpartition("@")
    base = local.partition("+")[0] or local  # "+x@..." has no tag to drop, only a name
    if domain in GMAIL:
        return f"{base.replace('.', '')}@gmail.com"
    return f"{base}@{domain}"


def code_hash(row_id: int, code: str) -> str:
    return hashlib.sha256(f"{row_id}:{code}".encode()).hexdigest()


def unsubscribe_token(row_id: int, address: str, key: str) -> str:
    mac = hmac.new(key.encode(), f"{row_id}:{address}".encode(), hashlib.sha256)
    return f"{row_id}.{mac.hexdigest()[:40]}"


def mask(address: str) -> str:
    """a***@example.org: enough for its owner to recognise it."""
    local, domain = address.rsplit("@", 1)
    return f"{local[:1]}***@{domain}"


class AddressBook:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], wall: Wall,
                 wake: Callable[[], None] = lambda: None) -> None:
        self.sessions = sessions
        self.wall = wall
        self.wake = wake  # tells the worker a message is waiting

    async def add(self, room_code: str, seat: int, address: str, lang: str,
                  seat_token: str, client: str = "unknown") -> dict[str, Any]:
        """Give the seat this address (unconfirmed) and send it a code; the same address
        again is "send the code again" (rate-limited, per seat, per address and per
        `client`, the address the request came from)."""
        return await in_a_burst(lambda: self._add(room_code, seat, address, lang,
                                                   seat_token, client))

    async def _add(self, room_code: str, seat: int, address: str, lang: str,
                   seat_token: str, client: str) -> dict[str, Any]:
        address, lang, now = normalize(address), lang_of(lang), self.wall()
        async with self.sessions() as session, session.begin():
            row = await _row(session, room_code, seat, lock=True)
            if row is None:
                row = SeatAddress(room_code=room_code, seat=seat, address=address, lang=lang,
                                  code_tries=0, codes_sent=0, unsub_key=secrets.token_hex(32),
                                  digest=False, created_at=now)
                session.add(row)
                await session.flush()
            elif row.address != address or row.unsubscribed_at is not None:
                row.address, row.confirmed_at, row.unsubscribed_at = address, None, None
                row.unsub_key = secrets.token_hex(32)  # old links do not unsubscribe this one
            elif row.confirmed_at is not None:
                row.lang, row.seat_link = lang, seat_token
                return self._status(row, now)
            row.lang, row.seat_link = lang, seat_token
            code, serial = await new_code(session, row, address, client, now)
            await outbox.put(session, key=f"code:{serial}", kind="code", room_code=room_code,
                             seat=seat, seq=0, address_id=row.id, payload={"code": code}, now=now)
            status = self._status(row, now)
        log.info("a confirmation code is on its way to address #%d", row.id)
        self.wake()
        return status

    async def confirm(self, room_code: str, seat: int, code: str) -> dict[str, Any]:
        now = self.wall()
        async with self.sessions() as session, session.begin():
            row = await _row(session, room_code, seat, lock=True)
            if row is None or row.unsubscribed_at is not None:
                raise RoomError("code_expired", "no code is waiting for this seat; ask for one",
                                409)
            if row.confirmed_at is not None and row.code_hash is None:
                raise RoomError("code_expired", "this address is confirmed already; that "
                                "code cannot be used again", 409)
            wrong = check_code(row, code, now)
            if wrong is None:
                row.confirmed_at = now
            status = self._status(row, now)
        if wrong is not None:
            raise wrong
        log.info("address #%d confirmed", row.id)
        return status

    async def status(self, room_code: str, seat: int) -> dict[str, Any]:
        async with self.sessions() as session:
            row = await _row(session, room_code, seat)
            return {"state": "none"} if row is None else self._status(row, self.wall())

    async def set_digest(self, room_code: str, seat: int, on: bool) -> dict[str, Any]:
        """A daily digest of this address's turns instead of a message per turn (off: the
        turns waiting for the digest go out one by one)."""
        async with self.sessions() as session, session.begin():
            row = await _row(session, room_code, seat, lock=True)
            if row is None:
                raise RoomError("no_address", "this seat has no e-mail address; add one", 409)
            row.digest = on
            if on:
                await outbox.hold_pending(session, row.address)
            else:
                await outbox.release_held(session, row.address)
            status = self._status(row, self.wall())
        self.wake()
        return status

    async def remove(self, room_code: str, seat: int) -> None:
        """The seat's player takes their address back."""
        async with self.sessions() as session, session.begin():
            row = await _row(session, room_code, seat, lock=True)
            if row is not None:
                await session.delete(row)

    async def check_unsubscribe(self, token: str) -> None:
        """Nothing changes: RoomError `unsubscribe_invalid` unless `token` is an address's
        link (what a GET of the link does: link scanners and previews open links)."""
        async with self.sessions() as session:
            await _unsubscribing(session, token)

    async def unsubscribe(self, token: str) -> None:
        """One click: no more mail to the address this token was made for (every seat)."""
        now = self.wall()
        async with self.sessions() as session, session.begin():
            row = await _unsubscribing(session, token)
            await session.execute(update(SeatAddress).where(
                SeatAddress.address == row.address, SeatAddress.unsubscribed_at.is_(None))
                .values(unsubscribed_at=now, seat_link=None, code_hash=None))
        log.info("address #%d unsubscribed", row.id)

    @staticmethod
    def _status(row: SeatAddress, now: datetime) -> dict[str, Any]:
        state = ("unsubscribed" if row.unsubscribed_at is not None else
                 "confirmed" if row.confirmed_at is not None else "pending")
        wait = 0
        if row.last_code_at is not None:
            wait = max(0, round((row.last_code_at + RESEND_GAP - now).total_seconds()))
        return {"state": state, "address": mask(row.address), "resend_in": wait,
                "digest": bool(row.digest)}


def _check_rate(row: SeatAddress | AccountAddress, now: datetime) -> None:
    """A seat's or an account's codes: RESEND_GAP between two, MAX_CODES in CODES_WINDOW."""
    if row.last_code_at is not None and now - row.last_code_at < RESEND_GAP:
        wait = round((row.last_code_at + RESEND_GAP - now).total_seconds())
        raise RoomError("resend_slow", f"a code was just sent; ask again in {wait} s", 429)
    in_window = row.window_at is not None and now - row.window_at < CODES_WINDOW
    if in_window and row.codes_sent >= MAX_CODES:
        raise RoomError("resend_slow", f"{MAX_CODES} codes were sent for this today; "
                        "try again tomorrow", 429)


async def new_code(session: AsyncSession, row: SeatAddress | AccountAddress, address: str,
                   client: str, now: datetime) -> tuple[str, str]:
    """A fresh code for a seat's or an account's address, once every limit allows it (the
    row's own, the mailbox's, the client's): its hash and expiry kept on the row; returned,
    the code itself to be mailed (never stored in plain) and the code's serial on that row
    (row, window, count: the outbox key that sends it once)."""
    _check_rate(row, now)
    await count_mailbox(session, address, now)
    await count_client(session, client, now)
    code = f"{secrets.randbelow(10**6):06d}"
    if row.window_at is None or now - row.window_at >= CODES_WINDOW:
        row.window_at, row.codes_sent = now, 0
    row.codes_sent += 1
    row.code_hash, row.code_expires_at = code_hash(row.id, code), now + CODE_TTL
    row.code_tries, row.last_code_at = 0, now
    return code, f"{row.id}:{row.window_at.timestamp():.0f}:{row.codes_sent}"


def check_code(row: SeatAddress | AccountAddress, code: str,
               now: datetime) -> RoomError | None:
    """The code given for a seat's or an account's address, checked against the one
    `new_code` kept on `row`: None if it is the code (then spent: the caller confirms);
    else the refusal `code_wrong` for the caller to raise after its commit, for the wrong
    guess is counted, and spends the code at MAX_TRIES. RoomError `code_expired` at once
    (nothing changed) if no code is waiting or it has run out."""
    expires = row.code_expires_at
    if (row.code_hash is None or expires is None or now >= expires
            or row.code_tries >= MAX_TRIES):
        raise RoomError("code_expired", "no code is waiting, or it has run out (15 minutes, "
                        "5 tries); ask for a new one", 409)
    given = code.strip() if isinstance(code, str) else ""
    if hmac.compare_digest(code_hash(row.id, given), row.code_hash):
        row.code_hash, row.code_expires_at = None, None
        return None
    row.code_tries += 1
    left = MAX_TRIES - row.code_tries
    if left <= 0:
        row.code_hash = None
    return RoomError("code_wrong", f"that is not the code; {left} tries left", 422)


MAILBOX_LOCKS = 0x4D4258  # the advisory lock class of codes sent per mailbox (PostgreSQL)


async def count_mailbox(session: AsyncSession, address: str, now: datetime) -> None:
    """At most MAX_CODES_PER_MAILBOX codes in CODES_WINDOW to the mailbox `address` reaches,
    from every table, seat and client together: counted, then this code written, one at a
    time per mailbox (SQLite: the write lock; PostgreSQL: an advisory lock, taken before the
    client's, always in that order). Kept as a hash: the address itself lives only in
    seat_addresses."""
    key = hashlib.sha256(mailbox(address).encode()).hexdigest()
    await session.execute(delete(CodeSend).where(CodeSend.at < now - CODES_WINDOW))
    if session.get_bind().dialect.name == "postgresql":
        await session.execute(select(func.pg_advisory_xact_lock(MAILBOX_LOCKS,
                                                                func.hashtext(key))))
    count = await session.scalar(select(func.count()).select_from(CodeSend).where(
        CodeSend.mailbox == key, CodeSend.at > now - CODES_WINDOW)) or 0
    if count >= MAX_CODES_PER_MAILBOX:
        raise RoomError("resend_slow", f"{MAX_CODES_PER_MAILBOX} codes were sent to this "
                        "mailbox today; try again tomorrow", 429)
    session.add(CodeSend(mailbox=key, at=now))
    await session.flush()


CLIENT_LOCKS = 0x434F44  # the advisory lock class of code requests per client (PostgreSQL)


async def count_client(session: AsyncSession, client: str, now: datetime) -> None:
    """This request counted under its client address, then the count checked: written and
    counted one at a time per client (SQLite: the write lock held from the first write to
    the commit; PostgreSQL: an advisory lock), so a burst cannot pass the limit. Refused:
    the caller's transaction rolls back, this request's row with it."""
    client = client[:160]
    await session.execute(delete(CodeRequest).where(CodeRequest.at < now - CLIENT_WINDOW))
    if session.get_bind().dialect.name == "postgresql":
        await session.execute(select(func.pg_advisory_xact_lock(CLIENT_LOCKS,
                                                                func.hashtext(client))))
    session.add(CodeRequest(client=client, at=now))
    await session.flush()
    count = await session.scalar(select(func.count()).select_from(CodeRequest).where(
        CodeRequest.client == client, CodeRequest.at > now - CLIENT_WINDOW)) or 0
    if count > MAX_CODES_PER_CLIENT:
        raise _flood()


async def in_a_burst(request: Callable[[], Awaitable[T]]) -> T:
    """A code request's transaction as a burst of them leaves it: the first request for a
    seat or an account creates its row, and another made alongside finds it taken
    (IntegrityError), so it runs once more on the row now there; one that waits past
    DB_TIMEOUT for the client's or the row's lock is the client's flood (code_flood)."""
    try:
        try:
            return await request()
        except IntegrityError:
            return await request()
    except SQLAlchemyError as exc:
        if not waited_too_long(exc):
            raise
        raise _flood() from None


def _flood() -> RoomError:
    minutes = int(CLIENT_WINDOW.total_seconds() // 60)
    return RoomError("code_flood", f"{MAX_CODES_PER_CLIENT} codes were asked for from your "
                     f"address in {minutes} minutes; try again later", 429)


async def _unsubscribing(session: AsyncSession, token: str) -> SeatAddress:
    """The address row `token` was made for; RoomError `unsubscribe_invalid` otherwise."""
    row_id, _, mac = (token or "").partition(".")
    row = (await session.get(SeatAddress, int(row_id))
           if row_id.isdigit() and len(row_id) < 18 else None)
    if row is None or not hmac.compare_digest(
            unsubscribe_token(row.id, row.address, row.unsub_key), f"{row_id}.{mac}"):
        raise RoomError("unsubscribe_invalid", "this unsubscribe link is not for that address",
                        403)
    return row


async def _row(session: AsyncSession, room_code: str, seat: int,
               lock: bool = False) -> SeatAddress | None:
    query = select(SeatAddress).where(SeatAddress.room_code == room_code,
                                      SeatAddress.seat == seat)
    if lock:
        query = query.with_for_update()
    return (await session.execute(query)).scalar_one_or_none()


async def subscribed(session: AsyncSession, room_code: str, seat: int) -> SeatAddress | None:
    """The seat's confirmed, subscribed address row, if any."""
    row = await _row(session, room_code, seat)
    if row is None or row.confirmed_at is None or row.unsubscribed_at is not None:
        return None
    return row

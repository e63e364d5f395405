"""The mail worker: one task per app. Each pass it writes the turns people should hear
about, and the late seats the other players should, into the outbox (rooms this instance
holds: in cluster mode, the ones it owns), then sends what is due. A move only wakes it (an
event), so a slow or unreachable SMTP server never holds up a move; failed sends back off
(outbox.backoff) and go later.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable, Sequence
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.config import Settings
from server.db.models import AccountAddress, SeatAddress
from server.rooms import PLAYING, Event, Room, RoomManager
from server.rooms.codes import display
from server.rooms.seat import hash_token, same_hash

from . import outbox
from .account_mail import ACCOUNT_CODE, RESET
from .addresses import subscribed, unsubscribe_token
from .mailer import Mail, Mailer
from .strings import say
from .turns import current_turn, late_turn, waiting_turn

log = logging.getLogger(__name__)

POLL = 5.0  # seconds between passes when nothing wakes the worker
CLEANUP_EVERY = 3600.0  # seconds between looks for addresses of games that are over


def mail_settings_ok(settings: Settings) -> bool:
    """Mail is on when an SMTP server is named."""
    return bool(settings.SMTP_HOST)


class MailWorker:
    def __init__(self, settings: Settings, manager: RoomManager,
                 wall: Callable[[], datetime]) -> None:
        self.settings = settings
        self.manager = manager
        self.wall = wall
        self.mailer = Mailer(settings)
        self.sender = f"{settings.instance}/{secrets.token_hex(4)}"
        self.sessions: async_sessionmaker[AsyncSession] | None = None  # set once open
        self.backlog = 0
        self.failing = False  # the last send failed (SMTP unreachable or refusing)
        self.sent = 0
        self._asked: set[str] = set()  # turn keys already put (or found without an address)
        self._wake = asyncio.Event()
        self._cleaned: datetime | None = None
        self._stopping = False

    def wake(self) -> None:
        self._wake.set()

    async def __call__(self, room: Room, events: Sequence[Event]) -> None:
        """The rooms' listener: a turn-based room changed, look at it soon."""
        if room.options.turn_based:
            self._wake.set()

    async def stop(self, task: asyncio.Task[None], grace: float = 5.0) -> None:
        """Let the pass under way finish (its sessions close cleanly), then end the task."""
        self._stopping = True
        self._wake.set()
        try:
            await asyncio.wait_for(asyncio.shield(task), grace)
        except (TimeoutError, asyncio.CancelledError):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def run(self) -> None:
        while not self._stopping:
            self._wake.clear()  # before the pass: a wake-up during it makes another pass
            try:
                await self.step()
            except Exception:
                log.exception("mail worker pass failed")
            if self._stopping:
                return
            wait = POLL
            if self.sessions is not None:
                try:
                    async with self.sessions() as session:
                        due = await outbox.soonest(session)
                    if due is not None:
                        wait = min(POLL, max(0.05, (due - self.wall()).total_seconds()))
                except Exception:
                    log.debug("looking for the next due mail failed", exc_info=True)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), wait)

    async def step(self) -> None:
        """One pass: put the waiting turns, send what is due, count the backlog; now and
        then forget the addresses of games that are over."""
        if self.sessions is None:
            return
        await self.put_turns()
        async with self.sessions() as session, session.begin():
            await outbox.make_digests(session, self.wall())
        await self.drain()
        async with self.sessions() as session:
            self.backlog = await outbox.backlog(session)
        now = self.wall()
        if self._cleaned is None or (now - self._cleaned).total_seconds() >= CLEANUP_EVERY:
            await self.cleanup()
            self._cleaned = now

    async def cleanup(self) -> int:
        assert self.sessions is not None
        async with self.sessions() as session, session.begin():
            count = await outbox.forget_ended(session)
        if count:
            log.info("forgot %d e-mail address(es) of games that are over", count)
        return count

    async def put_turns(self) -> None:
        assert self.sessions is not None
        keys = set()
        for room in list(self.manager.rooms.values()):
            turn = waiting_turn(room)
            if turn is None:
                continue
            keys.add(turn.key)
            if turn.key in self._asked:
                continue
            async with self.sessions() as session, session.begin():
                row = await subscribed(session, turn.room_code, turn.seat)
                if row is not None and self._same_player(room, row):
                    await outbox.put(session, key=turn.key, kind="turn",
                                     room_code=turn.room_code, seat=turn.seat, seq=turn.seq,
                                     address_id=row.id, payload=None, now=self.wall(),
                                     status=outbox.HELD if row.digest else outbox.PENDING)
            self._asked.add(turn.key)
        for room in list(self.manager.rooms.values()):
            keys |= await self._put_late(room)
        self._asked &= keys  # forget turns that are over

    async def _put_late(self, room: Room) -> set[str]:
        """A late seat: each other player who is not at the table (who is sees the choice
        there) and gave an address hears of it, once; returns the keys still wanted."""
        assert self.sessions is not None
        late = late_turn(room)
        if late is None:
            return set()
        keys = set()
        name = room.seats[late.seat].name or str(late.seat + 1)
        for seat in room.seats:
            key = late.key(seat.index)
            if seat.index == late.seat or seat.token_hash is None or seat.conn is not None:
                continue
            keys.add(key)
            if key in self._asked:
                continue
            async with self.sessions() as session, session.begin():
                row = await subscribed(session, room.code, seat.index)
                if row is not None and self._same_player(room, row):
                    await outbox.put(session, key=key, kind="late", room_code=room.code,
                                     seat=seat.index, seq=late.seq, address_id=row.id,
                                     payload={"late": late.seat, "name": name},
                                     now=self.wall())
            self._asked.add(key)
        return keys

    @staticmethod
    def _same_player(room: Room, address: SeatAddress) -> bool:
        """The address was given by the player who sits there now (a seat freed and taken
        by someone else keeps no address of the one before)."""
        token_hash = room.seats[address.seat].token_hash
        return address.seat_link is not None and token_hash is not None and same_hash(
            hash_token(address.seat_link), token_hash)

    def forget_turns(self, room_code: str) -> None:
        """An address was confirmed at this room: look at its turns again."""
        self._asked = {k for k in self._asked if k.split(":", 2)[1] != room_code}

    async def drain(self) -> None:
        assert self.sessions is not None
        while True:
            async with self.sessions() as session, session.begin():
                rows = await outbox.claim(session, self.sender, self.wall())
            if not rows:
                return
            for row in rows:
                await self._send(row)

    async def _send(self, row: outbox.Claimed) -> None:
        assert self.sessions is not None
        async with self.sessions() as session:
            address = (None if row.address_id is None
                       else await session.get(SeatAddress, row.address_id))
            if row.account_address_id is not None:
                mail = self._account_mail(row, await session.get(AccountAddress,
                                                                 row.account_address_id))
            elif address is None or row.room_code is None:
                mail = None
            elif row.kind == "digest":
                mail = await self._digest(session, row, address)
            else:
                mail = self._mail(row, row.room_code, address)
                if mail is not None and row.kind == "turn" and not await self._still_on(
                        session, row.key, row.room_code, address):
                    mail = None
                if mail is not None and row.kind == "late" and not await self._still_late(
                        session, row, address):
                    mail = None
        if mail is None:
            async with self.sessions() as session, session.begin():
                await outbox.drop(session, row.id, self.sender, self.wall())
            return
        async with self.sessions() as session, session.begin():
            if not await outbox.extend(session, row.id, self.sender, self.wall()):
                return  # the claim ran out while earlier rows of the batch were sent
        try:
            await self.mailer.send(mail, self.wall())
        except Exception as exc:
            self.failing = True
            log.warning("mail #%d (%s) not sent, try %d: %s", row.id, row.kind,
                        row.attempts + 1, type(exc).__name__)
            async with self.sessions() as session, session.begin():
                await outbox.retry(session, row.id, self.sender, row.attempts, self.wall())
            return
        self.failing = False
        self.sent += 1
        async with self.sessions() as session, session.begin():
            await outbox.sent(session, row.id, self.sender, self.wall())
        log.info("mail #%d (%s) sent to address #%d", row.id, row.kind,
                 row.address_id or row.account_address_id)

    def _account_mail(self, row: outbox.Claimed, address: AccountAddress | None) -> Mail | None:
        """An account's own mail (server/notify/account_mail.py): a confirmation code, to
        the address it was made for, or a password reset link, to the confirmed address.
        No unsubscribe link: nothing is sent unless the account's owner asks for it."""
        payload = row.payload or {}
        if address is None:
            return None
        if row.kind == ACCOUNT_CODE:
            code, to = payload.get("code"), payload.get("to")
            if not code or not to or to != address.pending:
                return None  # another address is pending now, or it was confirmed
            return Mail(to, say(address.lang, "code.subject", code=code),
                        say(address.lang, "account_code.body", code=code), row.key, None)
        token, lang = payload.get("token"), str(payload.get("lang") or address.lang)
        if row.kind != RESET or not token or address.address is None:
            return None
        link = f"{self.public_url()}/account/reset#token={token}"
        return Mail(address.address, say(lang, "reset.subject"),
                    say(lang, "reset.body", link=link), row.key, None)

    def _mail(self, row: outbox.Claimed, room_code: str,
              address: SeatAddress) -> Mail | None:
        """The message of a claimed row, or None when it is no longer worth sending."""
        if address.unsubscribed_at is not None:
            return None
        base = self.public_url()
        unsubscribe = (f"{base}/unsubscribe/"
                       f"{unsubscribe_token(address.id, address.address, address.unsub_key)}")
        code = display(room_code)
        lang = address.lang
        footer = say(lang, "footer", unsubscribe=unsubscribe)
        if row.kind == "code":
            secret = (row.payload or {}).get("code")
            if not secret:
                return None
            return Mail(address.address, say(lang, "code.subject", code=secret),
                        say(lang, "code.body", code=secret, room=code) + footer, row.key,
                        unsubscribe)
        if address.confirmed_at is None:
            return None
        if row.kind == "late":
            name = str((row.payload or {}).get("name") or "?")
            return Mail(address.address, say(lang, "late.subject", name=name, code=code),
                        say(lang, "late.body", name=name, code=code,
                            link=self._link(room_code, address)) + footer,
                        row.key, unsubscribe)
        room = self.manager.rooms.get(room_code)
        name = "" if room is None else room.seats[row.seat].name or ""
        return Mail(address.address, say(lang, "turn.subject", code=code),
                    say(lang, "turn.body", code=code, name=name,
                        link=self._link(room_code, address)) + footer,
                    row.key, unsubscribe)

    def _link(self, room_code: str, address: SeatAddress) -> str:
        """Straight to the seat: the table with the seat token the player gave."""
        link = f"{self.public_url()}/r/{display(room_code)}"
        return link + (f"#seat={address.seat_link}" if address.seat_link else "")

    async def _still_on(self, session: AsyncSession, key: str, room_code: str,
                        address: SeatAddress) -> bool:
        """The turn of `key` is still being waited for, by the player who gave `address`
        (a room not held here, another instance's or over: while the game is played)."""
        room = self.manager.rooms.get(room_code)
        if room is None:
            return await outbox.room_status(session, room_code) == PLAYING
        now = current_turn(room)
        return now is not None and now.key == key and self._same_player(room, address)

    async def _still_late(self, session: AsyncSession, row: outbox.Claimed,
                          address: SeatAddress) -> bool:
        """The late turn of `row` still waits for a choice, and `address` is still its
        recipient's (a room not held here: while the game is played)."""
        code = row.room_code or ""
        room = self.manager.rooms.get(code)
        if room is None:
            return await outbox.room_status(session, code) == PLAYING
        late = late_turn(room)
        return (late is not None and late.key(row.seat) == row.key
                and self._same_player(room, address))

    async def _digest(self, session: AsyncSession, row: outbox.Claimed,
                      address: SeatAddress) -> Mail | None:
        """One message for the turns gathered in a digest row (those still waiting)."""
        if address.unsubscribed_at is not None:
            return None
        lines = []
        for key, room_code, _seat, address_id in (row.payload or {}).get("turns", []):
            seat_address = await session.get(SeatAddress, address_id)
            if seat_address is None or seat_address.unsubscribed_at is not None:
                continue
            if await self._still_on(session, key, room_code, seat_address):
                lines.append(say(address.lang, "digest.line", code=display(room_code),
                                 link=self._link(room_code, seat_address)))
        if not lines:
            return None
        unsubscribe = (f"{self.public_url()}/unsubscribe/"
                       f"{unsubscribe_token(address.id, address.address, address.unsub_key)}")
        return Mail(address.address, say(address.lang, "digest.subject", count=len(lines)),
                    say(address.lang, "digest.body", lines="".join(lines))
                    + say(address.lang, "footer", unsubscribe=unsubscribe), row.key, unsubscribe)

    def public_url(self) -> str:
        s = self.settings
        return (s.PUBLIC_URL or f"http://{s.HOST}:{s.PORT}").rstrip("/")

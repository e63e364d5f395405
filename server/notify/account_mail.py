"""An account's e-mail address and the mail a forgotten password needs.

The address is confirmed as a seat's is (server/notify/addresses.py): a 6-digit code sent
to it, kept hashed, valid CODE_TTL, MAX_TRIES guesses, "send it again" after RESEND_GAP and
MAX_CODES a day per account; every code (a seat's or an account's, and every reset link)
counts against the mailbox's MAX_CODES_PER_MAILBOX a day and the client address's
MAX_CODES_PER_CLIENT an hour. A new address waits as `pending` while the confirmed one
keeps working.

"Forgot password" (`forgot`) answers the same whoever asks: the client address is counted
at once (its limit is refused aloud, `code_flood`: that says nothing about the address
asked for), and everything that depends on the address runs after the answer has gone
(`send_links`, a background task): the mailbox's limit, which accounts have it confirmed,
each account's limit (server/accounts/resets.py), and one mail per account with its link.
So neither the answer, its status nor its time says whether an account has the address.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.accounts import resets
from server.db.models import AccountAddress
from server.rooms import RoomError

from . import outbox
from .addresses import (
    RESEND_GAP,
    check_code,
    count_client,
    count_mailbox,
    in_a_burst,
    mask,
    new_code,
    normalize,
)
from .strings import lang_of

log = logging.getLogger(__name__)

Wall = Callable[[], datetime]
ACCOUNT_CODE, RESET = "account_code", "reset"  # the outbox kinds of an account's mail


def address_key(address: str) -> str:
    """What a "forgot password" request is matched on: the address in lower case."""
    return address.lower()


class AccountMail:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], wall: Wall,
                 wake: Callable[[], None] = lambda: None) -> None:
        self.sessions = sessions
        self.wall = wall
        self.wake = wake

    async def add(self, account_id: int, address: str, lang: str,
                  client: str) -> dict[str, Any]:
        """The account's new address waits for its code, sent now (the same pending address
        again is "send the code again"); the confirmed address, if any, stays until then."""
        return await in_a_burst(lambda: self._add(account_id, address, lang, client))

    async def _add(self, account_id: int, address: str, lang: str,
                   client: str) -> dict[str, Any]:
        address, lang, now = normalize(address), lang_of(lang), self.wall()
        async with self.sessions() as session, session.begin():
            row = await _row(session, account_id, lock=True)
            if row is None:
                row = AccountAddress(account_id=account_id, lang=lang, code_tries=0,
                                     codes_sent=0, created_at=now)
                session.add(row)
                await session.flush()
            row.lang = lang
            if row.address == address and row.confirmed_at is not None:
                row.pending, row.code_hash, row.code_expires_at = None, None, None
                return _status(row, now)
            if row.pending != address:
                row.pending, row.code_hash, row.code_expires_at = address, None, None
            code, serial = await new_code(session, row, address, client, now)
            await outbox.put(session, key=f"acode:{serial}", kind=ACCOUNT_CODE, room_code=None,
                             seat=0, seq=0, address_id=None, account_address_id=row.id,
                             payload={"code": code, "to": address}, now=now)
            status = _status(row, now)
        log.info("a confirmation code is on its way to account address #%d", row.id)
        self.wake()
        return status

    async def confirm(self, account_id: int, code: str) -> dict[str, Any]:
        now = self.wall()
        async with self.sessions() as session, session.begin():
            row = await _row(session, account_id, lock=True)
            if row is None or row.pending is None:
                raise RoomError("code_expired", "no code is waiting for this address; ask "
                                "for one", 409)
            wrong = check_code(row, code, now)
            if wrong is None:
                row.address, row.address_key = row.pending, address_key(row.pending)
                row.confirmed_at, row.pending = now, None
            status = _status(row, now)
        if wrong is not None:
            raise wrong
        log.info("account address #%d confirmed", row.id)
        return status

    async def status(self, account_id: int) -> dict[str, Any]:
        async with self.sessions() as session:
            row = await _row(session, account_id)
            return {"state": "none"} if row is None else _status(row, self.wall())

    async def remove(self, account_id: int) -> None:
        """The account keeps no address (a forgotten password then has no way back)."""
        async with self.sessions() as session, session.begin():
            row = await _row(session, account_id, lock=True)
            if row is not None:
                await session.delete(row)

    async def forgot(self, client: str) -> None:
        """A "forgot password" request from `client`, counted (code_flood past the client's
        limit): the part of it that does not depend on the address asked for."""
        async def count() -> None:
            async with self.sessions() as session, session.begin():
                await count_client(session, client, self.wall())

        await in_a_burst(count)

    async def send_links(self, address: str, lang: str) -> int:
        """After the answer: one link to each account that confirmed `address`, within the
        mailbox's and each account's limits (silently: nobody is told). How many."""
        now, sent = self.wall(), 0
        try:
            async with self.sessions() as session, session.begin():
                rows = list((await session.execute(
                    select(AccountAddress).where(
                        AccountAddress.address_key == address_key(address),
                        AccountAddress.confirmed_at.is_not(None))
                    .order_by(AccountAddress.id).with_for_update())).scalars())
                links = []
                for row in rows:
                    token = await resets.new_link(session, row.account_id, now)
                    if token is None:
                        log.info("account address #%d: no reset link (the account's limit)",
                                 row.id)
                    else:
                        links.append((row, token))
                if not links:
                    return 0
                await count_mailbox(session, address, now)  # refused: nothing is kept
                for row, token in links:
                    await outbox.put(session, key=f"reset:{resets.token_hash(token)[:40]}",
                                     kind=RESET, room_code=None, seat=0, seq=0,
                                     address_id=None, account_address_id=row.id,
                                     payload={"token": token, "lang": lang_of(lang)}, now=now)
                    sent += 1
        except RoomError:
            log.info("a password reset was not mailed: the mailbox's limit")
            return 0
        except Exception:
            log.exception("password reset links not made")
            return 0
        if sent:
            log.info("%d password reset link(s) on their way", sent)
            self.wake()
        return sent


def _status(row: AccountAddress, now: datetime) -> dict[str, Any]:
    wait = 0
    if row.last_code_at is not None and row.pending is not None:
        wait = max(0, round((row.last_code_at + RESEND_GAP - now).total_seconds()))
    state = "confirmed" if row.confirmed_at is not None and row.address else (
        "pending" if row.pending else "none")
    return {"state": state, "address": None if row.address is None else mask(row.address),
            "pending": None if row.pending is None else mask(row.pending), "resend_in": wait}


async def _row(session: AsyncSession, account_id: int,
               lock: bool = False) -> AccountAddress | None:
    query = select(AccountAddress).where(AccountAddress.account_id == account_id)
    if lock:
        query = query.with_for_update()
    return (await session.execute(query)).scalar_one_or_none()


"""What every instance keeps of the operators' doings, and how it keeps up: the current
announcement, the muted accounts, and the position in `operator_actions`.

The audit is the feed. An instance applies its own operator's action at once; every
instance (the one that acted too, harmlessly) reads the rows after its position every
FEED_EVERY seconds and applies them: an announcement shows, a mute takes hold, a disabled
account's sockets held here are dropped. So a cluster needs nothing but its database for
this, and a restarted instance starts from what the rows say."""

from __future__ import annotations

import asyncio
import logging

from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.rooms import RoomManager

from . import store
from .actions import drop_account
from .refusals import Refusals

log = logging.getLogger(__name__)

FEED_EVERY = 2.0  # seconds between two reads of the audit's new rows


def account_of(target: str | None) -> int | None:
    """An audit target "#12" as 12 (None: not an account)."""
    if target is None or not target.startswith("#") or not target[1:].isdigit():
        return None
    return int(target[1:])


class Operations:
    def __init__(self, manager: RoomManager, muted: set[int]) -> None:
        self.manager = manager
        self.muted = muted  # the set the table sockets read (app.state.muted_accounts)
        self.announcement = ""
        self.position = 0
        self.refusals = Refusals()
        self.migration: str | None = None  # the database's, read at start

    async def load(self, session: AsyncSession) -> None:
        """At start: the announcement, the mutes and the feed's end, as stored."""
        self.announcement = await store.announcement(session)
        self.muted.clear()
        self.muted.update(await store.muted(session))
        self.position = await store.last_id(session)

    async def apply(self, done: store.Done) -> None:
        account = account_of(done.target)
        if done.action == store.ANNOUNCE:
            self.announcement = done.detail or ""
        elif done.action == store.MUTE and account is not None:
            self.muted.add(account)
        elif done.action == store.UNMUTE and account is not None:
            self.muted.discard(account)
        elif done.action == store.DISABLE and account is not None:
            await drop_account(self.manager, account)
        self.position = max(self.position, done.id)

    async def follow(self, sessions: async_sessionmaker[AsyncSession]) -> int:
        """One read of the rows after our position, applied in order; how many."""
        async with sessions() as session:
            rows = await store.since(session, self.position)
        for done in rows:
            await self.apply(done)
        return len(rows)

    async def run(self, sessions: async_sessionmaker[AsyncSession],
                  every: float = FEED_EVERY) -> None:
        while True:
            await asyncio.sleep(every)
            try:
                await self.follow(sessions)
            except (SQLAlchemyError, OSError) as exc:
                log.warning("operators: the audit could not be read (%r)", exc)

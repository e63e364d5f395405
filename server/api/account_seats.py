"""A deleted or disabled account's open seats lose their ✓ (issue 29).

A seat shows "verified" while its account may sign in. When the account is deleted (its
owner, /api/me/delete) or disabled (the host, `coffee-rush users disable`, another
process), its seats at unfinished tables become guests' seats: the player plays on by the
seat token, the table no longer vouches for the name, and the game will not be rated.

The delete route unverifies this instance's seats at once. Everything else (the CLI, an
account deleted on another instance of a cluster) is found by `watch`, which asks the
database every SWEEP_INTERVAL which of the accounts seated here are gone. Re-enabling an
account does not verify its open seats again.
"""

from __future__ import annotations

import asyncio
import logging

from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.accounts import store
from server.db.errors import cancelling
from server.quickplay import Quickplay
from server.rooms import PLAYING, WAITING, RoomError, RoomManager
from server.rooms.seating import unverify

from .quickplay import sweep_signed_out

log = logging.getLogger(__name__)


def _seated(manager: RoomManager) -> set[int]:
    return {s.account_id for room in list(manager.rooms.values())
            if room.status in (WAITING, PLAYING)
            for s in room.seats if s.account_id is not None}


async def unverify_account(manager: RoomManager, account_id: int) -> int:
    """Unverify the account's seats in this instance's unfinished rooms; how many."""
    count = 0
    for room in list(manager.rooms.values()):
        if any(s.account_id == account_id for s in room.seats):
            try:
                count += await unverify(room, account_id) is not None
            except RoomError as exc:  # the journal is away: the next pass tries again
                log.warning("room %s: seat not unverified (%s)", room.display_code, exc.code)
    return count


async def unverify_gone(manager: RoomManager,
                        sessions: async_sessionmaker[AsyncSession]) -> int:
    """One pass: every seat here whose account is disabled or deleted; how many."""
    seated = _seated(manager)
    if not seated:
        return 0
    async with sessions() as session:
        gone = await store.gone(session, seated)
    return sum([await unverify_account(manager, a) for a in sorted(gone)])


async def watch(manager: RoomManager, sessions: async_sessionmaker[AsyncSession],
                interval: float, quickplay: Quickplay | None = None) -> None:
    """Every `interval`: the seats of gone accounts lose their mark, and the lobby sockets
    of sessions that are over (ended on another instance of a cluster) close."""
    while True:
        await asyncio.sleep(interval)
        try:
            await unverify_gone(manager, sessions)
            if quickplay is not None:
                await sweep_signed_out(quickplay, sessions)
        except (SQLAlchemyError, OSError) as exc:
            if cancelling():  # stopped mid-query: the error is the cancellation's
                raise
            log.warning("accounts: could not check the seated accounts (%r)", exc)

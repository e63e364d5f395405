"""Cluster mode's fencing: every journal write carries its owner's epoch, and the database
refuses it once another instance has claimed the room (raised the epoch)."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from server.db import store
from server.db.journal import Journal
from server.db.records import Fenced
from server.db.session import session_factory

from .conftest import UNHURRIED, Clock
from .helpers import new_room

pytestmark = pytest.mark.asyncio
CODE = "FENCE234"


async def claim(engine: AsyncEngine, code: str) -> int | None:
    async with session_factory(engine)() as s, s.begin():
        return await store.claim_room(s, code)


async def stored_actions(engine: AsyncEngine) -> list[tuple[int, int | None, dict]]:
    async with session_factory(engine)() as s:
        room = await store.load_unfinished_room(s, CODE)
    assert room is not None
    return list(room.actions)


async def test_the_old_owners_writes_are_refused_once_the_room_is_claimed(
    engine: AsyncEngine, clock: Clock
) -> None:
    old_epochs: dict[str, int] = {CODE: 1}
    old = Journal(engine, None, fence=old_epochs.get, clock=clock, write_timeout=UNHURRIED)
    await old.start()
    await old.room_created(new_room(CODE, clock()))
    await old.action_accepted(CODE, 1, 0, {"type": "step", "cell": 1})
    assert await claim(engine, CODE) == 2  # another instance takes the room over
    with pytest.raises(Fenced):
        await old.action_accepted(CODE, 2, 1, {"type": "step", "cell": 2})
    new = Journal(engine, None, fence={CODE: 2}.get, clock=clock, write_timeout=UNHURRIED)
    await new.start()
    await new.action_accepted(CODE, 2, 1, {"type": "step", "cell": 3})
    assert [seq_action[2]["cell"] for seq_action in await stored_actions(engine)] == [1, 3]
    await asyncio.gather(old.stop(), new.stop())


async def test_a_fenced_write_fails_alone_in_its_batch(engine: AsyncEngine, clock: Clock) -> None:
    epochs = {CODE: 1, "OTHER234": 1}
    journal = Journal(engine, None, fence=epochs.get, clock=clock, write_timeout=UNHURRIED)
    await journal.start()
    await journal.room_created(new_room(CODE, clock()))
    await journal.room_created(new_room("OTHER234", clock()))
    assert await claim(engine, CODE) == 2
    results = await asyncio.gather(
        journal.action_accepted(CODE, 1, 0, {"type": "step", "cell": 1}),
        journal.action_accepted("OTHER234", 1, 0, {"type": "step", "cell": 1}),
        return_exceptions=True,
    )
    assert isinstance(results[0], Fenced) and results[1] is None
    await journal.stop()


async def test_claiming_needs_an_unfinished_room(engine: AsyncEngine) -> None:
    assert await claim(engine, "NOSUCH23") is None


async def test_the_journal_tells_of_a_fenced_write_before_its_caller_resumes(
    engine: AsyncEngine, clock: Clock
) -> None:
    """The cluster drops a fenced room at once (server.cluster.ownership.Ownership.fenced):
    nothing the refused caller does next may reach the room's sockets."""
    told: list[tuple[str, int]] = []
    journal = Journal(engine, None, fence={CODE: 1}.get, clock=clock, write_timeout=UNHURRIED)
    journal.on_fenced = lambda code, epoch: told.append((code, epoch))
    await journal.start()
    try:
        await journal.room_created(new_room(CODE, clock()))
        await journal.action_accepted(CODE, 1, 0, {"type": "step", "cell": 1})
        assert told == []
        assert await claim(engine, CODE) == 2
        with pytest.raises(Fenced):
            await journal.action_accepted(CODE, 2, 1, {"type": "step", "cell": 2})
        assert told == [(CODE, 1)]
    finally:
        await journal.stop()

"""A chat line carries its owner's epoch like every journal write (cluster mode): once
another instance has claimed the room, the old owner's message is refused `unavailable`,
never acknowledged or sent, and the database keeps nothing of it."""

from __future__ import annotations

import json

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from server.db import store
from server.db.journal import Journal
from server.db.session import session_factory
from server.persist.journal import RoomJournal
from server.rooms import Connection, RoomError, RoomManager, RoomOptions, chat, seating

from .conftest import UNHURRIED, Clock
from .test_fencing import claim

pytestmark = pytest.mark.asyncio


async def test_a_fenced_chat_line_is_refused_not_acknowledged(
    engine: AsyncEngine, clock: Clock, settings
) -> None:
    epochs: dict[str, int] = {}
    db = Journal(engine, None, fence=epochs.get, clock=clock, write_timeout=UNHURRIED)
    await db.start()
    try:
        manager = RoomManager(settings, RoomJournal(db, clock))
        room, host = await manager.create(RoomOptions(2), "t")
        epochs[room.code] = 0  # the epoch this instance claimed it at
        tokens = [(await seating.join(room, name, None))[1] for name in ("Ana", "Bo")]
        conns = [Connection(), Connection()]
        for conn, token in zip(conns, tokens, strict=True):
            await room.attach(conn, token, None)
        await chat.post(room, conns[0], "mine still", None)
        assert await claim(engine, room.code) == 1  # another instance takes the room over
        sent = [len(c.outbox) for c in conns]
        with pytest.raises(RoomError) as refused:
            await chat.post(room, conns[0], "too late", None)
        assert refused.value.code == "unavailable"
        assert [len(c.outbox) for c in conns] == sent  # nobody was sent it
        assert [m["text"] for m in room.talk.items] == ["mine still"]
        stored = await db_talk(engine, room.code)
        assert [t["text"] for t in stored if t.get("kind") == "chat"] == ["mine still"]
    finally:
        await db.stop()


async def db_talk(engine: AsyncEngine, code: str) -> list[dict]:
    async with session_factory(engine)() as s:
        room = await store.load_unfinished_room(s, code)
    assert room is not None
    return [t if isinstance(t, dict) else json.loads(t) for t in room.talk]

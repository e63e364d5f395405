"""A finished game leaves nothing behind once its room is swept: rooms (and their games)
are freed by reference counting alone (the server raises the collector's thresholds, so anything
kept only by a reference cycle would stay for hours), and the live objects do not grow
with the number of games played."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import random
import weakref
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from server.bots.driver import BotDriver
from server.config import Settings
from server.persist import Database, RoomJournal
from server.rooms import Connection, Room, RoomManager, RoomOptions, add_bot, start


class Sink:
    """The database journal's interface, writing nothing (the rooms' side is under test)."""

    def __getattr__(self, name: str) -> Any:
        async def write(*args: Any, **kwargs: Any) -> None:
            return None

        return write


class InProcess:
    """Bots that pick a random legal action without a worker process."""

    async def choose(self, level: str, view: dict, seed: int, budget: float,
                     key: str | None = None) -> dict:
        return random.Random(seed).choice(view["legal"])


@contextlib.contextmanager
def collector_off() -> Iterator[None]:
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


class Tables:
    def __init__(self) -> None:
        self.now = 1000.0
        # Spectator counts published at once: no coalescing timer outlives a game here.
        settings = Settings(BOT_DELAY=0, ROOM_CREATE_RATE=10**9, PRESENCE_INTERVAL=0)
        self.manager = RoomManager(settings, RoomJournal(Sink()), clock=lambda: self.now)  # type: ignore[arg-type]
        self.bots = BotDriver(InProcess(), settings, self.manager)
        self.manager.listeners.append(self.bots)
        self.rooms: weakref.WeakSet[Room] = weakref.WeakSet()

    async def play(self, games: int) -> None:
        """`games` two-bot games to the end, each watched by a spectator; then a sweep."""
        for _ in range(games):
            room, host = await self.manager.create(RoomOptions(2), "client")
            for seat in (0, 1):
                await add_bot(room, host, seat, "random")
            watcher = Connection()
            await room.attach(watcher, None, None)
            await start(room, host)
            while room.status != "finished":
                await asyncio.sleep(0)
                while not watcher.outbox.empty():
                    watcher.outbox.popleft()
            await room.detach(watcher)
            self.rooms.add(room)
            del room, watcher
        while self.bots.running():
            await asyncio.sleep(0)
        self.now += 10**7  # past FINISHED_ROOM_TTL
        await self.manager.sweep()
        assert self.manager.rooms == {}


def live_objects() -> int:
    gc.collect()
    return len(gc.get_objects())


@pytest.fixture
def quiet_server_log() -> Iterator[None]:
    """Room log lines (info) kept by pytest's log capture would count as live objects."""
    logger = logging.getLogger("server")
    level = logger.level
    logger.setLevel(logging.WARNING)
    yield
    logger.setLevel(level)


@pytest.mark.asyncio
async def test_swept_games_are_freed_without_the_collector_and_nothing_grows(quiet_server_log):
    tables = Tables()
    await tables.play(3)  # warm-up: caches that fill once
    with collector_off():
        await tables.play(10)
        assert len(tables.rooms) == 0  # freed by reference counting alone
        before = live_objects()
        await tables.play(30)
        after = live_objects()
    assert len(tables.rooms) == 0
    # Thirty more games: no more live objects than a few stray ones (e.g. dead weak
    # references awaiting a lazy purge), far from one object per game.
    assert after - before < 30, (before, after)
    await tables.bots.close()


@pytest.mark.asyncio
async def test_journaling_a_game_leaves_no_schema_objects_in_reference_cycles(tmp_path):
    """The server collects cyclic garbage rarely (gc thresholds raised for latency), so
    garbage in cycles made for every game is memory kept: SQLAlchemy objects built per
    statement (a table alias from each upsert's `.excluded`) cost about 20 KB a game."""
    settings = Settings(DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path}/db.sqlite",
                        JOURNAL_FALLBACK_PATH=tmp_path / "fallback.jsonl")
    database = Database(settings)
    await database.open()
    tables = Tables()
    tables.manager.journal = RoomJournal(database.journal)
    try:
        await tables.play(1)  # warm-up: statements compiled and cached once
        gc.collect()
        with collector_off():
            gc.set_debug(gc.DEBUG_SAVEALL)
            try:
                await tables.play(3)
                gc.collect()
                kinds = Counter(type(o).__name__ for o in gc.garbage
                                if type(o).__module__.startswith("sqlalchemy.sql.s"))
            finally:
                gc.set_debug(0)
                gc.garbage.clear()
        assert kinds == Counter(), kinds  # e.g. Column, Alias, Table: schema objects
    finally:
        await tables.bots.close()
        await database.close()

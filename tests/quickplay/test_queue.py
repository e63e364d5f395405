"""Quick play over the shared database (server/quickplay/service.py, store.py), on SQLite
and PostgreSQL: two instances (two services, each with its own rooms, one database) seat
players who asked on either, never one player twice; a closed socket leaves the queue at
once, a dead instance's seeks within SEEK_ALIVE; abuse is bounded (one seek per player,
seeks per address)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import event, func, select

from server.config import Settings
from server.db.migrate import upgrade_async
from server.db.models import Seek
from server.db.session import make_engine, session_factory
from server.error_codes import Refusal
from server.quickplay import Ask, Quickplay, Who
from server.rooms import RoomManager
from server.rooms.seat import hash_token


class Socket:
    def __init__(self, client: str = "10.0.0.1") -> None:
        self.client = client
        self.frames: list[dict] = []

    def offer(self, text: str) -> None:
        self.frames.append(json.loads(text))

    send = offer

    def seated(self) -> dict | None:
        return next((f for f in self.frames if f["type"] == "seated"), None)


class Wall:
    def __init__(self) -> None:
        self.now = datetime(2026, 12, 5, 12, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def settings(instance: str, **extra: object) -> Settings:
    return Settings(_env_file=None, INSTANCE_ID=instance, TEST_FIXED_SEED=7, **extra)


def instance(name: str, sessions, wall: Wall, **extra: object) -> Quickplay:
    s = settings(name, **extra)
    return Quickplay(s, RoomManager(s), wall, sessions)


async def ask(q: Quickplay, socket: Socket, n: int, size: int = 2, **kw: object) -> int:
    return await q.seek(socket, Who(f"g:{n}", f"P{n}"),
                        Ask(size, str(kw.get("mode", "realtime")), bool(kw.get("rated", False)),
                            kw.get("bots_after"), None))  # type: ignore[arg-type]


@pytest.mark.asyncio
async def test_players_asking_on_two_instances_sit_at_one_table(sessions) -> None:
    wall = Wall()
    a, b = instance("a", sessions, wall), instance("b", sessions, wall)
    sockets = [Socket(f"10.0.0.{i}") for i in range(4)]
    for i, socket in enumerate(sockets):
        await ask(a if i % 2 else b, socket, i, size=4)
    await asyncio.gather(a.match(), b.match())  # both matchers at once: one table
    assert a.pairings + b.pairings == 1
    await a.renew()
    await b.renew()
    seated = [s.seated() for s in sockets]
    assert all(seated)
    assert len({f["code"] for f in seated}) == 1
    assert sorted(f["seat"] for f in seated) == [0, 1, 2, 3]
    owner = a if a.pairings else b
    room = owner.manager.get(seated[0]["code"])
    assert room.status == "playing"
    # each seat opens with the token its player was handed, and only with it
    for f in seated:
        assert room.seats[f["seat"]].token_hash == hash_token(f["seat_token"])
    async with sessions() as session:
        assert await session.scalar(select(func.count()).select_from(Seek)) == 0


@pytest.mark.asyncio
async def test_many_passes_at_once_never_seat_a_player_twice(sessions) -> None:
    wall = Wall()
    instances = [instance(name, sessions, wall) for name in "abc"]
    sockets = [Socket(f"10.0.1.{i}") for i in range(12)]
    for i, socket in enumerate(sockets):
        await ask(instances[i % 3], socket, i, size=2 + i % 3 if i < 9 else 0)
    for _ in range(3):
        await asyncio.gather(*(q.match() for q in instances))
    for q in instances:
        await q.renew()
    codes = [f["code"] for s in sockets if (f := s.seated())]
    rooms = {code: q.manager.get(code) for q in instances for code in q.manager.rooms}
    humans = sum(1 for room in rooms.values() for seat in room.seats if seat.name)
    assert humans == len(codes)  # every seat handed out once, none twice
    assert len(codes) >= 9  # the 2s, 3s and 4s at least (the "any"s fill in where they fit)


@pytest.mark.asyncio
async def test_a_closed_socket_leaves_at_once_and_a_dead_instance_within_seek_alive(
        sessions) -> None:
    wall = Wall()
    a, b = instance("a", sessions, wall), instance("b", sessions, wall)
    gone, dead, late = Socket("10.0.2.1"), Socket("10.0.2.2"), Socket("10.0.2.3")
    await ask(a, gone, 1)
    assert await a.leave(gone)
    await ask(b, dead, 2)
    wall.now += timedelta(seconds=a.settings.SEEK_ALIVE + 1)  # b died: nobody renews
    await ask(a, late, 3)
    await a.renew()
    assert await a.match() == 0
    assert late.seated() is None and dead.seated() is None
    async with sessions() as session:
        assert await session.scalar(select(func.count()).select_from(Seek)) == 1


@pytest.mark.asyncio
async def test_one_seek_per_player_and_per_address_limits(sessions) -> None:
    wall = Wall()
    a = instance("a", sessions, wall, SEEKS_PER_ADDRESS=2)
    b = instance("b", sessions, wall, SEEKS_PER_ADDRESS=2)
    one = Socket("10.0.3.1")
    await a.seek(one, Who("a:1", "Ann"), Ask(4, "realtime", False, None, None))
    with pytest.raises(Refusal) as again:  # the same account from another instance's tab
        await b.seek(Socket("10.0.3.9"), Who("a:1", "Ann"), Ask(4, "realtime", False, None, None))
    assert again.value.code == "seek_exists"
    with pytest.raises(Refusal) as same_socket:
        await a.seek(one, Who("g:x", "X"), Ask(4, "realtime", False, None, None))
    assert same_socket.value.code == "seek_exists"
    await b.seek(Socket("10.0.3.1"), Who("g:2", "Bo"), Ask(4, "realtime", False, None, None))
    with pytest.raises(Refusal) as crowded:  # counted across instances, in the database
        await a.seek(Socket("10.0.3.1"), Who("g:3", "Cy"), Ask(4, "realtime", False, None, None))
    assert crowded.value.code == "too_many_seeks"


@pytest.mark.asyncio
async def test_bots_fill_the_table_after_the_wait(sessions) -> None:
    wall = Wall()
    a = instance("a", sessions, wall)
    alone = Socket()
    await ask(a, alone, 1, size=3, bots_after=10)
    assert await a.match() == 0
    for _ in range(3):  # renewed while it waits
        wall.now += timedelta(seconds=4)
        await a.renew()
    assert await a.match() == 1
    await a.renew()
    room = a.manager.get(alone.seated()["code"])
    level = a.settings.TAKEOVER_LEVEL
    assert [seat.bot for seat in room.seats] == [None, level, level]
    assert room.seats[0].name == "P1" and room.status == "playing"


@pytest.mark.asyncio
async def test_nobody_using_quick_play_costs_no_database_reads_and_a_player_wakes_it(
        db_url: str) -> None:
    """A feature not in use costs nothing (issue 42): an instance with no seek and no lobby
    socket runs no statement at all, tick after tick; a lobby socket opening wakes it at once
    (the list is sent), and when it closes the instance is idle again. A dead instance's seek
    left behind while everyone was idle does not count against a player who asks later."""
    await upgrade_async(db_url)
    engine = make_engine(db_url)
    statements: list[str] = []
    event.listen(engine.sync_engine, "before_cursor_execute",
                 lambda *args: statements.append(args[2]))
    wall = Wall()
    q = instance("a", session_factory(engine), wall, QUICKPLAY_TICK=0.02)
    dead = instance("b", session_factory(engine), wall)
    await ask(dead, Socket("10.0.4.1"), 1)  # then instance b dies: its row stays
    statements.clear()
    loop = asyncio.create_task(q.run())
    try:
        await asyncio.sleep(0.3)  # ~15 ticks' time
        assert statements == []
        lobby = Socket("10.0.4.2")
        with q.attached(lobby):
            for _ in range(100):
                if lobby.frames:
                    break
                await asyncio.sleep(0.01)
            assert lobby.frames[0]["type"] == "lobby"
            assert any("seeks" in s for s in statements)
        wall.now += timedelta(seconds=q.settings.SEEK_ALIVE + 1)
        for _ in range(50):  # the tick that saw the socket go may still be under way
            statements.clear()
            await asyncio.sleep(0.1)
            if not statements:
                break
        await asyncio.sleep(0.3)
        assert statements == []
        # b's seek is long dead: it neither blocks the same player nor counts at its address
        await q.seek(Socket("10.0.4.1"), Who("g:1", "P1"),
                     Ask(2, "realtime", False, None, None))
        async with q.sessions() as session:  # type: ignore[misc]
            assert await session.scalar(select(func.count()).select_from(Seek)) == 1
    finally:
        loop.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await loop
        await engine.dispose()

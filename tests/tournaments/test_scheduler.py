"""The tournaments' scheduler over the shared database (server/tournaments/service.py,
store.py), on SQLite and PostgreSQL: rounds start themselves, two instances racing never
pair a round twice nor open a table twice, a new instance on the same database (a restart)
goes on where the last one was without pairing again, and the scheduler reads nothing while
no tournament is pending. A table's end is its game in `games` (what the rooms' journal
writes when a game ends), stored here directly."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from server.config import Settings
from server.db import store as db_store
from server.db.models import Tournament, TournamentRound
from server.rooms import RoomManager
from server.tournaments import Tournaments, document, store
from tests.db.helpers import accounts, rated_game


class Wall:
    def __init__(self) -> None:
        self.now = datetime(2026, 12, 5, 12, tzinfo=UTC)
        self.then: datetime | None = None  # where the clock is once read (see `passing`)

    def __call__(self) -> datetime:
        now = self.now
        if self.then is not None:
            self.now, self.then = self.then, None
        return now

    def passing(self, at: datetime) -> None:
        """The clock reads a millisecond before `at` once, then a millisecond after it: a
        scheduler pass that begins just before a start and ends just after it."""
        self.now, self.then = at - timedelta(milliseconds=1), at + timedelta(milliseconds=1)


def instance(name: str, sessions, wall: Wall) -> Tournaments:
    s = Settings(_env_file=None, INSTANCE_ID=name, TEST_FIXED_SEED=7)
    return Tournaments(s, RoomManager(s), wall, sessions)


START = timedelta(minutes=5)  # an organised tournament starts this long after wall.now


async def organise(sessions, wall: Wall, players: int, **kw) -> tuple[int, list[int]]:
    ids = await accounts(sessions, *(f"P{i}" for i in range(1, players + 1)))
    async with sessions.begin() as s:
        tid = await store.create(s, store.NewTournament(
            name="Winter Cup", organiser_id=ids[0], system=kw.get("system", "swiss"),
            table_size=kw.get("size", 4), rounds=kw.get("rounds", 3), mode="realtime",
            turn=60, bank=300, rated=True, invite=None,
            starts_at=wall.now + START, client="10.0.0.1"), wall.now)
        for i, account in enumerate(ids):
            await store.enter(s, tid, account, f"P{i + 1}", "10.0.0.1", wall.now, 200)
    return tid, ids


async def end_tables(sessions, tid: int, places_of) -> None:
    """Every table of the current round ends (its game stored as the journal stores it)."""
    async with sessions() as s:
        tables = await store.tables(s, tid)
    clock = lambda: datetime(2026, 12, 5, 13, tzinfo=UTC)  # noqa: E731
    async with sessions.begin() as s:
        for t in tables:
            if t.room_code and t.points is None:
                places = places_of(t.players)
                await db_store.save_finished_game(s, rated_game(
                    t.room_code, clock, [(p, None) for p in t.players], places))


async def count(sessions, model) -> int:
    async with sessions() as s:
        return await s.scalar(select(func.count()).select_from(model))


@pytest.mark.asyncio
async def test_two_instances_start_a_tournament_once_and_open_each_table_once(sessions) -> None:
    wall = Wall()
    a, b = instance("a", sessions, wall), instance("b", sessions, wall)
    tid, _ = await organise(sessions, wall, 8)
    await asyncio.gather(a.tick(), b.tick())
    assert await count(sessions, TournamentRound) == 0  # not yet due
    wall.now += timedelta(minutes=5)
    await asyncio.gather(a.tick(), b.tick(), a.tick(), b.tick())
    assert await count(sessions, TournamentRound) == 1
    assert a.paired + b.paired == 1
    rooms = {**a.manager.rooms, **b.manager.rooms}
    assert len(rooms) == 2  # two tables of four, each opened by one instance only
    async with sessions() as s:
        tables = await store.tables(s, tid)
    assert {t.room_code for t in tables} == set(rooms)
    for t in tables:
        room = rooms[t.room_code]
        assert room.status == "playing"
        assert [seat.account_id for seat in room.seats] == t.players  # in the pairing's order


@pytest.mark.asyncio
async def test_rounds_follow_results_and_a_restart_never_pairs_again(sessions) -> None:
    wall = Wall()
    first = instance("a", sessions, wall)
    tid, ids = await organise(sessions, wall, 8, rounds=2)
    wall.now += timedelta(minutes=5)
    await first.tick()
    # the first seat of each table wins, and so on (places 1..4 in seat order)
    await end_tables(sessions, tid, lambda players: [1, 2, 3, 4])
    restarted = instance("a2", sessions, wall)  # the process came back: nothing in memory
    await asyncio.gather(restarted.tick(), restarted.tick())
    assert await count(sessions, TournamentRound) == 2
    async with sessions() as s:
        doc = await document(s, tid)
    assert doc is not None and doc["round"] == 2 and doc["status"] == "running"
    # after round 1 (tables 1-4 and 5-8): 1 and 5 lead with 3 points, then 2 and 6 ...
    assert [(r["name"], r["points"]) for r in doc["standings"][:4]] == [
        ("P1", 3.0), ("P5", 3.0), ("P2", 2.0), ("P6", 2.0)]
    await end_tables(sessions, tid, lambda players: [1, 1, 3, 4])
    await restarted.tick()
    async with sessions() as s:
        doc = await document(s, tid)
    assert doc["status"] == "finished"
    assert await count(sessions, TournamentRound) == 2
    assert sum(len(r["tables"]) for r in doc["rounds_played"]) == 4


@pytest.mark.asyncio
async def test_a_round_cannot_be_paired_twice(sessions) -> None:
    wall = Wall()
    a = instance("a", sessions, wall)
    tid, _ = await organise(sessions, wall, 4)
    wall.now += timedelta(minutes=5)
    await a.tick()
    async with sessions() as s:
        with pytest.raises(IntegrityError):  # the unique (tournament, round) row
            async with s.begin():
                await store.add_round(s, tid, 1, [[1, 2]], 3, wall.now)
    assert await count(sessions, TournamentRound) == 1


@pytest.mark.asyncio
async def test_too_few_players_cancel(sessions) -> None:
    wall = Wall()
    a = instance("a", sessions, wall)
    lonely, _ = await organise(sessions, wall, 1)
    wall.now += timedelta(minutes=5)
    await a.tick()
    async with sessions() as s:
        assert (await store.get(s, lonely)).status == "cancelled"


@pytest.mark.asyncio
async def test_a_player_who_withdraws_mid_tournament_is_not_paired_again(sessions) -> None:
    wall = Wall()
    a = instance("a", sessions, wall)
    tid, ids = await organise(sessions, wall, 4, size=2, rounds=2)
    wall.now += START
    await a.tick()
    async with sessions.begin() as s:
        assert await store.withdraw(s, tid, ids[3], wall.now)
    await end_tables(sessions, tid, lambda players: [1, 2])
    await a.tick()
    async with sessions() as s:
        tables = await store.tables(s, tid)
    assert ids[3] in {p for t in tables if t.round == 1 for p in t.players}
    second = [t.players for t in tables if t.round == 2]
    assert second and all(ids[3] not in players for players in second)


@pytest.mark.asyncio
async def test_an_idle_scheduler_sleeps_until_the_next_start(sessions) -> None:
    wall = Wall()
    a = instance("a", sessions, wall)
    assert await a.tick() == a.settings.TOURNAMENT_IDLE  # nothing pending: the longest sleep
    await organise(sessions, wall, 4)
    assert await a.tick() == 300.0  # the start, 5 minutes ahead
    wall.now += timedelta(minutes=5)
    assert await a.tick() == a.settings.TOURNAMENT_CHECK  # a round is being played


@pytest.mark.asyncio
async def test_a_start_that_comes_during_a_pass_is_not_slept_through(sessions) -> None:
    """The pass that begins a moment before a start reads it as ahead, and ends a moment
    after it: it looks again at once (before: its second read no longer saw a start ahead,
    nothing was running, so it slept TOURNAMENT_IDLE, 300 s, and nobody heard round 1:
    the live Swiss test stalled one run in three)."""
    wall = Wall()
    a = instance("a", sessions, wall)
    tid, _ = await organise(sessions, wall, 4)
    wall.passing(wall.now + START)
    assert await a.tick() == 0.0
    await a.tick()
    async with sessions() as s:
        t = await store.get(s, tid)
    assert t is not None and (t.status, t.round) == ("running", 1)


@pytest.mark.asyncio
async def test_a_start_another_instance_holds_is_looked_at_again_soon(sessions, db_url) -> None:
    """A due tournament whose row another instance holds (PostgreSQL skips it, unwaited) is
    looked at again after TOURNAMENT_CHECK, not TOURNAMENT_IDLE: that instance may die
    before it commits the start."""
    if not db_url.startswith("postgresql"):
        pytest.skip("SQLite waits for its one writer instead of skipping a held row")
    wall = Wall()
    a = instance("a", sessions, wall)
    tid, _ = await organise(sessions, wall, 4)
    wall.now += START
    async with sessions() as other, other.begin():
        await other.execute(select(Tournament).where(Tournament.id == tid).with_for_update())
        assert await a.tick() == a.settings.TOURNAMENT_CHECK
    await a.tick()
    assert a.paired == 1

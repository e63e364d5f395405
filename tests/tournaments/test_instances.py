"""Tournaments across instances on one database (server/tournaments/service.py), on SQLite
and PostgreSQL (issue 46): a page watching on one instance hears what another instance
changed, and an instance watched by nobody reads nothing for it; an instance whose table
claim ran out while it was stopped (another opened the table meanwhile) leaves no second
room for that table when it goes on. The real processes: tests/cluster/test_tournaments.py."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, select

from server.config import Settings
from server.db.journal import Journal as DbJournal
from server.db.models import Game, Room
from server.persist import RoomJournal
from server.rooms import RoomManager
from server.tournaments import Tournaments, store

from .test_scheduler import START, Wall, organise

WATCH = 0.02  # seconds between a watched tournament's reads


def instance(name: str, sessions, wall: Wall) -> Tournaments:  # noqa: F811
    s = Settings(_env_file=None, INSTANCE_ID=name, TEST_FIXED_SEED=7, TOURNAMENT_WATCH=WATCH)
    return Tournaments(s, RoomManager(s), wall, sessions)


class Page:
    """A tournament page's socket as the service sees it: the states offered to it."""

    def __init__(self, client: str) -> None:
        self.client = client
        self.states: list[dict] = []

    def offer(self, text: str) -> None:
        self.states.append(json.loads(text)["tournament"])


async def reads_past(t: Tournaments, count: int) -> None:
    """Until `follow` has read `count` more states (bounded)."""
    target = t.reads + count
    async with asyncio.timeout(10):
        while t.reads < target:
            await asyncio.sleep(WATCH / 2)


@pytest.mark.asyncio
async def test_a_page_hears_another_instances_changes_and_nobody_watching_reads_nothing(
        sessions) -> None:  # noqa: F811
    wall = Wall()
    here, there = instance("here", sessions, wall), instance("there", sessions, wall)
    tid, ids = await organise(sessions, wall, 2)
    following = asyncio.create_task(here.follow())
    try:
        await asyncio.sleep(20 * WATCH)
        assert here.reads == 0  # no page watches here: not one read
        page = Page("10.46.0.1")
        with here.watching(tid, page):
            assert await here.publish(tid, page)  # what the route sends a page that comes
            assert [s["name"] for s in page.states[-1]["standings"]] == ["P1", "P2"]
            # Another instance pairs round 1 (its scheduler), nothing said to this one.
            wall.now += START
            await there.tick()
            async with asyncio.timeout(10):
                while not (rounds := page.states[-1]["rounds_played"]) or not rounds[0][
                        "tables"][0]["code"]:
                    await asyncio.sleep(WATCH / 2)
            heard = len(page.states)
            assert page.states[-1]["status"] == "running" and page.states[-1]["round"] == 1
            await reads_past(here, 5)
            assert len(page.states) == heard  # the same state is not sent again
            # ...and a withdrawal there is heard here.
            async with sessions.begin() as s:
                assert await store.withdraw(s, tid, ids[1], wall.now)
            async with asyncio.timeout(10):
                while not any(r["withdrawn"] for r in page.states[-1]["standings"]):
                    await asyncio.sleep(WATCH / 2)
        assert not here.watchers and not here.sent
        await reads_past(here, 0)
        stopped = here.reads
        await asyncio.sleep(20 * WATCH)
        assert here.reads == stopped  # the page left: no more reads
    finally:
        following.cancel()


@pytest.mark.asyncio
async def test_an_instance_whose_claim_ran_out_leaves_no_second_room(
        sessions, tmp_path: Path) -> None:  # noqa: F811
    """The instance that claimed the tables stops (SIGSTOP, a VM pause) past CLAIM_TTL;
    another opens them; the first then goes on with the claims it holds no more: the rooms
    it makes are closed (abandoned in the database with no game kept: the real journal),
    the tables keep the other's rooms, its scheduler knows none of its rooms as tables."""
    wall = Wall()
    journal = DbJournal(sessions.kw["bind"], tmp_path / "fallback.jsonl")
    await journal.start()
    frozen, other = instance("frozen", sessions, wall), instance("other", sessions, wall)
    frozen.manager = RoomManager(frozen.settings, RoomJournal(journal))
    try:
        await thawed_after_its_claims_ran_out(sessions, wall, frozen, other)
    finally:
        await journal.stop()
    async with sessions() as s:
        rooms = dict((await s.execute(select(Room.code, Room.status))).all())
        games = await s.scalar(select(func.count()).select_from(Game))
    assert len(rooms) == 2 and set(rooms.values()) == {"abandoned"}  # the frozen one's two
    assert games == 0


async def thawed_after_its_claims_ran_out(sessions, wall: Wall, frozen: Tournaments,  # noqa: F811
                                          other: Tournaments) -> None:
    tid, _ = await organise(sessions, wall, 4, size=2, rounds=2)
    wall.now += START
    assert await frozen.advance(tid)  # round 1 paired
    async with sessions.begin() as s:
        pending = await store.to_open(s, wall.now)
        assert len(pending) == 2
        for table in pending:
            assert await store.claim_table(s, table.table_id, "frozen-claim", wall.now)
    wall.now += store.CLAIM_TTL + timedelta(seconds=1)
    await other.tick()  # the claims ran out: the other instance opens both tables
    assert len(other.manager.rooms) == 2
    for table in pending:  # the frozen one thaws in the middle of opening them
        assert await frozen._open(table, "frozen-claim") is None
    assert frozen.manager.rooms == {}
    async with sessions() as s:
        tables = await store.tables(s, tid)
    assert {t.room_code for t in tables} == set(other.manager.rooms)
    await frozen.tick()  # nothing more to do there, and nothing done twice
    assert frozen.manager.rooms == {} and frozen.paired == 1
    assert set(frozen.tables) == set(other.manager.rooms)

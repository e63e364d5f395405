"""Tournaments in a real cluster (two `python -m server` instances, PostgreSQL, Redis), issue
46: a page watching on one instance hears the entries and the round start made on the other;
the instance that holds a tournament (it paired the round and holds its tables' rooms) is
frozen with SIGSTOP past its leases, the other carries the tournament on (the tables are
played there, it pairs and opens the next round), and once thawed the first pairs nothing
twice: one row per round, each player seated once a round, standings as the games say."""

from __future__ import annotations

import asyncio
import json
import signal
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from websockets.asyncio.client import ClientConnection, connect

from tests.tournaments.players import Player

from .harness import TEST_SETTINGS, Cluster

SETTINGS = {"PASSWORD_TIME_COST": "1", "PASSWORD_MEMORY_KIB": "8192",
            "SIGN_UPS_PER_ADDRESS": "100", "TOURNAMENT_CHECK": "1", "TOURNAMENT_RATE": "1000"}
TTL = float(TEST_SETTINGS["LEASE_TTL"])


async def state(watch: ClientConnection, check: Callable[[dict[str, Any]], bool],
                timeout: float = 20) -> dict[str, Any]:
    """The first state the page's socket sends that passes `check` (within `timeout`)."""
    async with asyncio.timeout(timeout):
        while True:
            frame = json.loads(await watch.recv())
            assert frame["type"] == "tournament", frame
            if check(frame["tournament"]):
                return frame["tournament"]


def tables(doc: dict[str, Any], number: int) -> list[dict[str, Any]]:
    return next((r["tables"] for r in doc["rounds_played"] if r["number"] == number), [])


def opened(doc: dict[str, Any], number: int) -> bool:
    return bool(tables(doc, number)) and all(t["code"] for t in tables(doc, number))


async def organise(url: str, players: list[Player], **options: Any) -> int:
    """The players sign up and the first organises a tournament starting in 8 s, all on
    the instance at `url` (the only one that knows it until it starts)."""
    for p in players:
        await p.sign_up()
    made = await players[0].client.post("/api/tournaments", json={
        "name": "Cluster Cup", "table_size": 2, "turn": 60, "bank": 300,
        "starts_at": (datetime.now(UTC) + timedelta(seconds=8)).isoformat(), **options})
    assert made.status_code == 201, made.text
    return int(made.json()["id"])


def test_a_page_on_one_instance_hears_entries_and_the_start_made_on_the_other(
        cluster) -> None:  # noqa: ANN001
    c: Cluster = cluster(2, settings=SETTINGS)
    one, two = c.instances["i1"].url, c.instances["i2"].url
    waits: dict[str, float] = {}

    async def whole() -> None:
        players = [Player(one, f"Cross{i}", f"10.46.2.{i}", seed=i) for i in (1, 2)]
        tid = await organise(one, players, rounds=1)
        async with connect(f"{two.replace('http', 'ws', 1)}/tournaments/{tid}/socket",
                           open_timeout=10) as watch:
            assert (await state(watch, lambda d: True))["standings"] == []
            for p in players:
                began = time.monotonic()
                await p.enter(tid)  # on i1
                await state(watch, lambda d, p=p: p.id in {s["id"] for s in d["standings"]})
                waits[p.name] = time.monotonic() - began
            doc = await state(watch, lambda d: opened(d, 1))
            waits["round 1 (after its start time)"] = (
                datetime.now(UTC) - datetime.fromisoformat(doc["starts_at"])).total_seconds()
        assert doc["status"] == "running" and doc["round"] == 1
        assert sorted(p["id"] for p in tables(doc, 1)[0]["players"]) == sorted(
            p.id for p in players)
        # the table was opened by i1 (its scheduler, which the tournament woke); i2 holds
        # nothing: what its page heard, it read
        assert [httpx.get(f"{u}/healthz").json()["rooms"] for u in (one, two)] == [1, 0]
        for p in players:
            await p.client.aclose()

    asyncio.run(whole())
    print("the page on i2 heard (s):", {k: round(v, 2) for k, v in waits.items()})


def move(player: Player, url: str) -> None:
    """The player's browser goes on at another instance (same account, same cookie)."""
    player.url, player.ws_url = url, url.replace("http://", "ws://")
    player.client.base_url = httpx.URL(url)
    player.client.headers["origin"] = url


async def doc_at(url: str, tid: int) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=url, timeout=10) as api:
        answer = await api.get(f"/api/tournaments/{tid}")
        assert answer.status_code == 200, answer.text
        return answer.json()


async def until(url: str, tid: int, check: Callable[[dict[str, Any]], bool],
                seconds: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        doc = await doc_at(url, tid)
        if check(doc):
            return doc
        assert time.monotonic() < deadline, f"not reached: {doc}"
        await asyncio.sleep(0.2)


async def play_round(doc: dict[str, Any], number: int, players: list[Player]) -> None:
    by_id = {p.id: p for p in players}
    await asyncio.gather(*(by_id[seat["id"]].play_table(table["code"])
                           for table in tables(doc, number) for seat in table["players"]))


def test_a_frozen_holder_is_carried_on_by_the_other_and_pairs_nothing_twice(
        cluster) -> None:  # noqa: ANN001
    c: Cluster = cluster(2, settings=SETTINGS)
    i1, i2 = c.instances["i1"], c.instances["i2"]
    figures: dict[str, float] = {}

    async def whole() -> dict[str, Any]:
        players = [Player(i1.url, f"Froz{i}", f"10.46.3.{i}", seed=i) for i in range(1, 5)]
        tid = await organise(i1.url, players, rounds=2)
        for p in players:
            await p.enter(tid)
        doc = await until(i1.url, tid, lambda d: opened(d, 1))
        assert httpx.get(f"{i1.url}/healthz").json()["rooms"] == 2  # i1 holds both tables
        c.kill("i1", signal.SIGSTOP)
        frozen = time.monotonic()
        try:
            await asyncio.sleep(1.5 * TTL)  # past i1's leases (and DB_TIMEOUT, its locks)
            for p in players:
                move(p, i2.url)
            await play_round(doc, 1, players)  # i2 takes the tables over and plays them
            # i2 scores round 1, pairs round 2 and opens its tables, i1 still frozen
            doc = await until(i2.url, tid, lambda d: opened(d, 2))
            figures["frozen until round 2 was open (s)"] = time.monotonic() - frozen
            assert httpx.get(f"{i2.url}/healthz").json()["rooms"] >= 2
        finally:
            c.kill("i1", signal.SIGCONT)
        # i1 thaws: its scheduler looks (every TOURNAMENT_CHECK s), its round-1 rooms are
        # i2's now. It must pair nothing again while round 2 is played.
        c.wait_healthy(["i1"])
        await asyncio.sleep(3)  # a few of i1's passes
        again = await doc_at(i1.url, tid)
        assert tables(again, 2) == tables(doc, 2)  # the same tables and rooms, seen from i1
        await play_round(doc, 2, players)
        doc = await until(i2.url, tid, lambda d: d["status"] == "finished")
        for p in players:
            await p.client.aclose()
        return doc

    doc = asyncio.run(whole())
    assert [r["number"] for r in doc["rounds_played"]] == [1, 2]
    for number in (1, 2):
        assert len(tables(doc, number)) == 2
        seated = sorted(s["id"] for t in tables(doc, number) for s in t["players"])
        assert len(seated) == 4 and len(set(seated)) == 4  # each player once a round
        for table in tables(doc, number):  # each 2-player table gave 1 and 0 points
            assert sorted(s["points"] for s in table["players"]) == [0.0, 1.0]
    assert sum(s["points"] for s in doc["standings"]) == 4.0
    assert sum(s["games"] for s in doc["standings"]) == 8
    engine = create_engine(make_url(c.database_url).set(drivername="postgresql+psycopg"))
    try:
        with engine.connect() as db:
            counted = db.execute(text(
                "SELECT (SELECT count(*) FROM tournament_rounds),"
                " (SELECT count(*) FROM tournament_tables),"
                " (SELECT count(*) FROM games),"
                " (SELECT count(*) FROM rooms WHERE status = 'playing')")).one()
    finally:
        engine.dispose()
    # two rounds, four tables, four games (no room but the tables' was played), none left
    assert tuple(counted) == (2, 4, 4, 0)
    assert "Traceback" not in i1.tail(100_000) + i2.tail(100_000)
    print("figures:", {k: round(v, 2) for k, v in figures.items()})

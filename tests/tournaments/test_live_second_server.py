"""A second server on the same data during a tournament (issue 46), with real processes
(`python -m server`): server A runs a 4-player Swiss at 2-player tables over 2 rounds,
round 1 is paired and its tables are open with every player seated, when a host starts
server B on A's data (the same SQLite data directory; on PostgreSQL outside cluster mode,
the same database). B is refused before it touches anything: its one-line refusal, A's
data directory unchanged, the tournament as it was. A is unharmed: the round-1 tables are
played to the end on the sockets opened before B came, round 2 is paired exactly once, and
in the database there is one row per round, each player is seated once a round, every room
is a table's and every table's game was kept, and the standings add up."""

from __future__ import annotations

import asyncio
import contextlib
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from db.conftest import PG_URL, reset_postgres
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from websockets.asyncio.client import connect

from tests.accounts.conftest import wait_for_the_last_server
from tests.persist.live import Server
from tests.persist.test_one_server import digest, run_second
from tests.persist.test_startup import refused

from .players import Player, Table
from .test_live_restart import doc_of, tables, until

FAST = {"PASSWORD_TIME_COST": "1", "PASSWORD_MEMORY_KIB": "8192", "BOT_WORKERS": "0",
        "FORWARDED_ALLOW_IPS": "127.0.0.1", "TEST_FIXED_SEED": "7"}


@pytest.mark.parametrize("engine", ["sqlite", "postgresql"])
def test_a_second_server_during_a_tournament_is_refused_and_the_first_plays_on(
        tmp_path: Path, engine: str) -> None:
    data = tmp_path / "data"
    a = {**FAST, "DATABASE_URL": f"sqlite+aiosqlite:///{data}/coffee-rush.db",
         "JOURNAL_FALLBACK_PATH": str(data / "journal-fallback.jsonl")}
    b, refusal = a, "another server (pid"
    if engine == "postgresql":
        reset_postgres(PG_URL)
        wait_for_the_last_server()
        a = {**a, "DATABASE_URL": PG_URL}
        # only the database is shared: B has a fallback file of its own
        b = {**a, "JOURNAL_FALLBACK_PATH": str(tmp_path / "other" / "fallback.jsonl")}
        refusal = "holds the journal of this database"
    server = Server(a, log=tmp_path / "a.log")
    server.start()
    try:
        doc = asyncio.run(tournament(server.http, b, data, refusal))
        assert server.proc is not None and server.proc.poll() is None  # A still serves
    finally:
        server.stop()
    assert not (tmp_path / "other" / "fallback.jsonl").exists()  # B wrote none of its own
    assert "Traceback" not in server.errors()
    assert [r["number"] for r in doc["rounds_played"]] == [1, 2]
    for number in (1, 2):
        for table in tables(doc, number):  # a 2-player table gives 1 and 0 (a tie splits)
            assert sum(s["points"] for s in table["players"]) == 1.0
    assert sum(s["points"] for s in doc["standings"]) == 4.0
    assert sum(s["games"] for s in doc["standings"]) == 8
    assert stored(a["DATABASE_URL"]) == {"rounds": 2, "tables": 4, "games": 4, "rooms": 4,
                                         "rooms not a table's": 0, "rooms playing": 0}


async def tournament(url: str, second: dict[str, str], data: Path,
                     refusal: str) -> dict[str, Any]:
    """Round 1 seated, B refused, then the whole tournament played on A; its last state."""
    players = [Player(url, f"Twin{i}", f"10.46.2.{i}", seed=i) for i in range(1, 5)]
    async with contextlib.AsyncExitStack() as sockets:
        for p in players:
            sockets.push_async_callback(p.client.aclose)
            await p.sign_up()
        start = datetime.now(UTC) + timedelta(seconds=4)  # room for every entry
        made = await players[0].client.post("/api/tournaments", json={
            "name": "Twin Cup", "table_size": 2, "rounds": 2, "turn": 60, "bank": 300,
            "starts_at": start.isoformat()})
        assert made.status_code == 201, made.text
        tid = made.json()["id"]
        for p in players:
            await p.enter(tid)
        doc = await until(url, tid, lambda d: tables(d, 1) and all(
            t["code"] for t in tables(d, 1)))
        seated = [await take_seat(sockets, p, t["code"]) for t in tables(doc, 1)
                  for p in players if any(s["id"] == p.id for s in t["players"])]
        assert len(seated) == 4

        before = digest(data)
        line = refused(await asyncio.to_thread(run_second, second))
        assert refusal in line, line
        assert digest(data) == before  # the fallback file and the locks' pids untouched
        assert await doc_of(url, tid) == doc  # nothing paired, opened or scored by B

        await asyncio.gather(*(table.play() for table in seated))
        doc = await until(url, tid, lambda d: d["round"] == 2 and all(
            t["code"] for t in tables(d, 2)))
        for table in tables(doc, 2):
            await asyncio.gather(*(p.play_table(table["code"]) for p in players
                                   if any(s["id"] == p.id for s in table["players"])))
        doc = await until(url, tid, lambda d: d["status"] == "finished")
    for number in (1, 2):  # each player seated once a round
        assert sorted(s["id"] for t in tables(doc, number) for s in t["players"]) == sorted(
            p.id for p in players)
    return doc


async def take_seat(sockets: contextlib.AsyncExitStack, player: Player, code: str) -> Table:
    """The player takes their seat at the table `code` (as players.Player.play_table does)
    and has its first view; the socket stays open (in `sockets`), nothing played yet."""
    r = await player.client.post(f"/api/rooms/{code}/rejoin", json={})
    assert r.status_code == 200, r.text
    ws = await sockets.enter_async_context(connect(f"{player.ws_url}/ws/{code}",
                                                   open_timeout=10))
    await ws.send(json.dumps({"type": "hello", "token": r.json()["seat_token"]}))
    table = Table(ws, r.json()["seat"], player)
    while table.view is None:
        await table.recv()
    return table


def stored(url: str) -> dict[str, int]:
    """What the database holds of the tournament's rounds, tables, games and rooms."""
    sync = make_url(url).set(drivername="postgresql+psycopg" if url.startswith("postgresql")
                             else "sqlite")
    engine = create_engine(sync)
    try:
        with engine.connect() as db:
            row = db.execute(text(
                "SELECT (SELECT count(*) FROM tournament_rounds),"
                " (SELECT count(*) FROM tournament_tables),"
                " (SELECT count(*) FROM games),"
                " (SELECT count(*) FROM rooms),"
                " (SELECT count(*) FROM rooms WHERE code NOT IN"
                "  (SELECT room_code FROM tournament_tables WHERE room_code IS NOT NULL)),"
                " (SELECT count(*) FROM rooms WHERE status = 'playing')")).one()
    finally:
        engine.dispose()
    return dict(zip(["rounds", "tables", "games", "rooms", "rooms not a table's",
                     "rooms playing"], row, strict=True))

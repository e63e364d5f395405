"""A real process restart in the middle of a round (`python -m server`, SQLite and
PostgreSQL): the tournament, its round and its tables come back as they were, the table
left unfinished is restored and played on, and the round is never paired again: round 2 is
paired once, when the last table of round 1 ends."""

from __future__ import annotations

import asyncio
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from db.conftest import PG_URL, reset_postgres

from tests.accounts.conftest import wait_for_the_last_server
from tests.serving import free_port, launch, stop, wait_ready

from .players import Player


def start(env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """The server, its log appended to `log` (a pipe nobody reads could fill up)."""
    with log.open("ab") as err:
        proc = launch(env, stderr=err)
    wait_ready(proc, f"http://127.0.0.1:{env['PORT']}")
    return proc


async def doc_of(url: str, tid: int) -> dict:
    async with httpx.AsyncClient(base_url=url) as api:
        return (await api.get(f"/api/tournaments/{tid}")).json()


async def until(url: str, tid: int, check, seconds: float = 60) -> dict:
    for _ in range(int(seconds / 0.2)):
        doc = await doc_of(url, tid)
        if check(doc):
            return doc
        await asyncio.sleep(0.2)
    raise AssertionError(f"not reached: {doc}")


def tables(doc: dict, number: int) -> list[dict]:
    return next((r["tables"] for r in doc["rounds_played"] if r["number"] == number), [])


@pytest.mark.parametrize("engine", ["sqlite", "postgresql"])
def test_a_restart_mid_round_keeps_the_tournament_and_never_pairs_again(
        tmp_path: Path, engine: str) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    database = f"sqlite+aiosqlite:///{tmp_path}/coffee-rush.db"
    if engine == "postgresql":
        reset_postgres(PG_URL)
        wait_for_the_last_server()
        database = PG_URL
    env = {"PORT": str(port), "DATABASE_URL": database, "BOT_WORKERS": "0",
           "JOURNAL_FALLBACK_PATH": f"{tmp_path}/fallback.jsonl", "TEST_FIXED_SEED": "7",
           "FORWARDED_ALLOW_IPS": "127.0.0.1"}
    players = [Player(url, f"Rest{i}", f"10.46.1.{i}", seed=i) for i in range(1, 5)]
    procs = [start(env, tmp_path / "server.log")]

    def restart() -> None:
        stop(procs[-1])
        if engine == "postgresql":
            wait_for_the_last_server()
        procs.append(start(env, tmp_path / "server.log"))

    async def whole() -> None:
        tid, first = await before(url, players)
        await asyncio.to_thread(restart)
        await after(url, tid, first, players)

    try:
        asyncio.run(whole())
    finally:
        stop(procs[-1])
    assert "Traceback" not in (tmp_path / "server.log").read_text()


async def before(url: str, players: list[Player]) -> tuple[int, dict]:
    """Round 1 starts; one of its two tables is played to the end, the other not at all."""
    for p in players:
        await p.sign_up()
    start = datetime.now(UTC) + timedelta(seconds=6)  # room for every entry on a loaded machine
    made = await players[0].client.post("/api/tournaments", json={
        "name": "Restart Cup", "table_size": 2, "rounds": 2, "turn": 60, "bank": 300,
        "starts_at": start.isoformat()})
    assert made.status_code == 201, made.text
    tid = made.json()["id"]
    for p in players:
        await p.enter(tid)
    doc = await until(url, tid, lambda d: all(t["code"] for t in tables(d, 1)) and tables(d, 1))
    done = tables(doc, 1)[0]
    seated = {p["id"] for p in done["players"]}
    await asyncio.gather(*(p.play_table(done["code"]) for p in players if p.id in seated))
    doc = await until(url, tid, lambda d: tables(d, 1)[0]["ended"])
    assert doc["round"] == 1 and not tables(doc, 1)[1]["ended"]
    return tid, doc


async def after(url: str, tid: int, first: dict, players: list[Player]) -> None:
    doc = await doc_of(url, tid)
    assert doc["status"] == "running" and doc["round"] == 1
    assert tables(doc, 1) == tables(first, 1)  # the same tables, rooms and results
    rest = tables(doc, 1)[1]
    seated = {p["id"] for p in rest["players"]}
    # the unfinished table was restored: its players take their seats and play it out
    await asyncio.gather(*(p.play_table(rest["code"]) for p in players if p.id in seated))
    doc = await until(url, tid, lambda d: d["round"] == 2 and all(
        t["code"] for t in tables(d, 2)))
    assert len(doc["rounds_played"]) == 2
    for table in tables(doc, 2):
        seated = {p["id"] for p in table["players"]}
        await asyncio.gather(*(p.play_table(table["code"]) for p in players
                               if p.id in seated))
    doc = await until(url, tid, lambda d: d["status"] == "finished")
    assert [r["number"] for r in doc["rounds_played"]] == [1, 2]  # each paired once
    for number in (1, 2):
        seated = sorted(p["id"] for t in tables(doc, number) for p in t["players"])
        assert seated == sorted(p.id for p in players)
    assert sum(s["points"] for s in doc["standings"]) == 4.0  # 1 a table, 4 tables
    for p in players:
        await p.client.aclose()

"""A turn-based tournament on a real server whose clock the test moves (tests/browser/
clocked.py): the round starts when the clock reaches the start time; one player plays by
script, the other never comes. Each time the no-show's day runs out the seat is late, and
in a tournament its stand-in (TAKEOVER_LEVEL) is seated at once, without waiting for
anyone's choice (the ruling in server/tournaments/service.py); the game ends, the table is
scored, the tournament ends, and the game is in /games."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta
from pathlib import Path

import httpx
from fastapi import FastAPI

from tests.browser.clocked import clocked_server, clocked_settings
from tests.clocks import FakeClock

from .players import Player

DAY = 86400


async def run(url: str, app: FastAPI, clock: FakeClock) -> None:
    wall = app.state.tournaments.wall
    shows, gone = Player(url, "Daypl", "127.0.0.1", 1), Player(url, "Noshow", "127.0.0.1", 2)
    for p in (shows, gone):
        await p.sign_up()
    made = await shows.client.post("/api/tournaments", json={
        "name": "Slow Cup", "system": "swiss", "table_size": 2, "rounds": 1,
        "mode": "turn_based", "turn": DAY, "bank": 0, "rated": True,
        "starts_at": (wall() + timedelta(hours=1)).isoformat()})
    assert made.status_code == 201, made.text
    tid = made.json()["id"]
    for p in (shows, gone):
        await p.enter(tid)
    clock.advance(3600)  # the start time comes
    playing = asyncio.create_task(shows.play_tournament(tid))
    code = await table_code(url, tid)
    room = app.state.rooms.get(code)
    late = room.seats[[s.account_id for s in room.seats].index(gone.id)]
    while not playing.done():
        if (room.game is not None and room.game.current == late.index
                and late.stand_in is None and room.status == "playing"):
            clock.advance(DAY + 1)  # the no-show's day runs out
        await asyncio.sleep(0.3)
    doc = playing.result()
    assert doc["status"] == "finished"
    table = doc["rounds_played"][0]["tables"][0]
    assert sum(p["points"] for p in table["players"]) == 1.0  # 1/0, or 0.5 each on a tie
    async with httpx.AsyncClient(base_url=url) as api:
        events = [e["event"] for e in
                  (await api.get(f"/api/rooms/{code}/events")).json()["events"]]
        stood = [e for e in events if e["type"] == "stand_in"]
        assert stood and {e["seat"] for e in stood} == {late.index}
        assert {e["level"] for e in stood} == {"greedy"}  # TAKEOVER_LEVEL
        games = (await api.get("/api/games")).json()["items"]
        assert any(g["room_code"].replace("-", "") == code for g in games)  # in /games
    await shows.client.aclose()
    await gone.client.aclose()


async def table_code(url: str, tid: int) -> str:
    deadline = time.monotonic() + 60
    async with httpx.AsyncClient(base_url=url) as api:
        while time.monotonic() < deadline:
            doc = (await api.get(f"/api/tournaments/{tid}")).json()
            codes = [t["code"] for r in doc["rounds_played"] for t in r["tables"] if t["code"]]
            if codes:
                return codes[0]
            await asyncio.sleep(0.2)
    raise AssertionError("the round did not start")


def test_a_turn_based_no_show_is_played_by_a_stand_in_and_scored(tmp_path: Path) -> None:
    clock = FakeClock()
    # The scheduler looks at least every half second (it sleeps in real time, the start
    # is on the moved clock); one bot worker for the stand-in.
    settings = clocked_settings(tmp_path, BOT_WORKERS=1, TOURNAMENT_IDLE=0.5)
    with clocked_server(settings, clock) as (url, app):
        asyncio.run(run(url, app, clock))

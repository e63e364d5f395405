"""Abandoned games in the history (issue 11): a game whose room expired mid-game is stored
with the standings it reached, marked abandoned, with the bot that played for whom; a game
that bots played to its end for players who had all left is marked abandoned too.

Real rooms (RoomManager, its sweep), the real journal and store, on SQLite and PostgreSQL,
then the history API reading the same database."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from db.conftest import PG_URL, reset_postgres
from fastapi.testclient import TestClient

from server.config import Settings
from server.db import store
from server.db.journal import Journal as DbJournal
from server.db.migrate import upgrade, upgrade_async
from server.db.records import PlayerResult
from server.db.session import make_engine, session_factory
from server.history import replay_game
from server.history.outcome import abandoned_result, is_abandoned
from server.main import create_app
from server.persist import RoomJournal
from server.rooms import RoomManager, RoomOptions, seating
from server.rules import legal_actions
from tests.stored import game_by_room

IDLE = 100.0


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(params=["sqlite", "postgresql"])
def any_db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path}/abandoned.db"
    reset_postgres(PG_URL)
    return PG_URL


async def expire_mid_game(url: str, tmp_path: Path, *, finish: bool = False) -> str:
    """Ana and Bo play; Bo leaves and a greedy bot stands in for him; then nobody comes
    back and the room expires (or, `finish`, Ana leaves too and the bots play it out).
    Returns the room code."""
    await upgrade_async(url)
    engine = make_engine(url)
    db = DbJournal(engine, tmp_path / "fallback.jsonl")
    await db.start()
    try:
        clock = Clock()
        settings = Settings(_env_file=None, ROOM_IDLE_TTL=IDLE, DATABASE_URL=url)
        manager = RoomManager(settings, RoomJournal(db), clock=clock)
        room, host = await manager.create(RoomOptions(2, public=True), "1.2.3.4")
        await seating.join(room, "Ana", 0)
        await seating.join(room, "Bo", 1)
        await seating.start(room, host)
        assert room.game is not None
        rng = random.Random(7)
        while room.game.turn < 5 or room.game.current != 1:  # a few rounds in
            seat = room.game.current
            await room.act(seat, rng.choice(legal_actions(room.game)), room.v)
        assert await seating.stand_in(room, 1, "greedy")  # Bo is away: a bot plays for him
        if finish:
            assert await seating.stand_in(room, 0, "random")
            while room.game.phase != "over":
                seat = room.game.current
                await room.act(seat, rng.choice(legal_actions(room.game)), room.v,
                               bot=room.seats[seat].stand_in)
        else:
            clock.now += IDLE
            assert await manager.sweep() == [room.code]
        return room.code
    finally:
        await db.stop()
        await engine.dispose()


async def load(url: str, code: str) -> tuple[Any, Any, list]:
    engine = make_engine(url)
    try:
        async with session_factory(engine)() as s:
            game = await game_by_room(s, code)
            status = (await store._room(s, code))[1]
            on_show = await store.load_finished_rooms(s, game.summary.ended_at.replace(year=2000))
        return game, status, on_show
    finally:
        await engine.dispose()


def app_on(url: str, tmp_path: Path) -> TestClient:
    return TestClient(create_app(Settings(
        _env_file=None, DATABASE_URL=url, JOURNAL_FALLBACK_PATH=str(tmp_path / "app.jsonl"),
        ALLOWED_HOSTS="testserver",
    )))


def test_an_expired_game_is_kept_as_abandoned_with_who_played_for_whom(
    any_db_url: str, tmp_path: Path, make_client: Callable[[str | None], TestClient],
) -> None:
    code = asyncio.run(expire_mid_game(any_db_url, tmp_path))
    game, status, on_show = asyncio.run(load(any_db_url, code))
    assert status == "abandoned" and on_show == []  # never put on show as a finished room
    assert game is not None and game.summary.end_reason == "abandoned"
    # The standings when it stopped, as the engine ranks that position; no winner.
    position = replay_game(game.seed, game.options, game.actions)
    assert position.phase != "over"
    assert game.result == json.loads(json.dumps(abandoned_result(position)))
    assert game.result["winners"] == []
    assert [(p.name, p.bot, p.stand_in, p.winner) for p in game.summary.players] == [
        ("Ana", None, None, False), ("Bo", None, "greedy", False)]

    with app_on(any_db_url, tmp_path) as api:
        listed = api.get("/api/games").json()["items"]
        assert [(g["room_code"], g["abandoned"], g["end_reason"]) for g in listed] == [
            (code, True, "abandoned")]
        assert [(p["name"], p["stand_in"]) for p in listed[0]["players"]] == [
            ("Ana", None), ("Bo", "greedy")]
        gid = listed[0]["id"]
        replay = api.get(f"/api/games/{gid}/replay").json()
        assert len(replay["steps"]) == len(game.actions) and replay["game"]["abandoned"]
        page = api.get("/games").text
        assert 'data-i18n="games.abandoned"' in page and 'data-stand-in="greedy"' in page
        doc = api.get(f"/api/games/{gid}/export").json()
    assert doc["result"]["reason"] == "abandoned"
    assert doc["players"][1] == {"seat": 1, "name": "Bo", "bot": None, "stand_in": "greedy"}

    # The export imports elsewhere: replayed, its standings checked, marked the same way.
    other = make_client(empty_db(tmp_path))
    r = other.post("/api/games/import", json=doc)
    assert r.status_code == 201, r.text
    imported = other.get(f"/api/games/{r.json()['id']}").json()
    assert imported["abandoned"] and imported["players"][1]["stand_in"] == "greedy"
    scores = [dict(s) for s in doc["result"]["scores"]]
    scores[0]["total"] += 1
    tampered = {**doc, "result": {**doc["result"], "scores": scores}}
    r = other.post("/api/games/import", json=tampered)
    assert r.status_code == 422 and r.json()["error"]["code"] == "result_mismatch"


def empty_db(tmp_path: Path) -> str:
    url = f"sqlite+aiosqlite:///{tmp_path}/import.db"
    upgrade(url)
    return url


def test_a_game_bots_finished_for_players_who_all_left_is_abandoned(
    any_db_url: str, tmp_path: Path,
) -> None:
    code = asyncio.run(expire_mid_game(any_db_url, tmp_path, finish=True))
    game, status, _ = asyncio.run(load(any_db_url, code))
    assert status == "finished" and game.summary.end_reason != "abandoned"
    assert game.result["winners"]  # played to its end: the result stands
    assert [p.stand_in for p in game.summary.players] == ["random", "greedy"]
    with app_on(any_db_url, tmp_path) as api:
        (listed,) = api.get("/api/games").json()["items"]
    assert listed["abandoned"] is True


def player(seat: int, bot: str | None = None, stand_in: str | None = None) -> PlayerResult:
    return PlayerResult(seat, f"P{seat}", bot, 1, False, 0, 0, 0, 0, 0, (), stand_in)


def test_what_counts_as_abandoned() -> None:
    assert is_abandoned("abandoned", [player(0), player(1)])
    assert not is_abandoned("deck", [player(0), player(1, stand_in="greedy")])  # Ana stayed
    assert is_abandoned("deck", [player(0, stand_in="greedy"), player(1, bot="greedy")])
    assert not is_abandoned("deck", [player(0, bot="greedy"), player(1, bot="random")])

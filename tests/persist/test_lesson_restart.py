"""A lesson is a room like any other (issue 45): journaled, it comes back after a restart
with its `lesson` option, its deal (R-SETUP-L) and the same pointer; once over it is saved
as a game, unrated, and `/api/games` lists it only when asked for lessons."""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient

from server.bots import greedy
from server.bots.budget import Budget
from server.db.ratings import rated_accounts

from .live import play_in_process, stored_game


def play(client: TestClient, code: str, actions: int | None, rng: random.Random) -> None:
    """The learner follows the pointers, the bot seat plays greedy; `actions` of them (None:
    to the end)."""

    def choose(room: Any, seat: int) -> dict[str, Any]:
        if seat == 0:
            return dict(client.get(f"/api/rooms/{code}/lesson").json()["action"])
        return greedy.choose(room.view(seat)["game"], rng, Budget(1.0))

    play_in_process(client, code, choose, actions)


def test_a_lesson_survives_a_restart_and_is_kept_apart_once_over(app_on, db_url):
    rng = random.Random(1)
    with app_on() as client:
        made = client.post("/api/lessons", json={"name": "Mina"}).json()
        code = made["code"]
        play(client, code, 30, rng)
        room = client.app.state.rooms.get(code)
        before = (room.info(), room.view(0)["game"], client.get(f"/api/rooms/{code}/lesson").json())

    with app_on() as client:
        room = client.app.state.rooms.get(code)
        assert room.options.lesson and not room.options.rated
        assert room.info() == before[0] and room.view(0)["game"] == before[1]
        pointer = client.get(f"/api/rooms/{code}/lesson").json()
        assert {k: pointer[k] for k in ("seat", "action", "note")} == \
            {k: before[2][k] for k in ("seat", "action", "note")}
        play(client, code, None, rng)
        listed = client.get("/api/games").json()
        with_lessons = client.get("/api/games?lessons=true").json()

    saved = stored_game(db_url, code)
    assert saved is not None and saved.options["lesson"] is True
    assert rated_accounts(saved.options, None, []) is None  # unrated, whoever played
    codes = [[g["room_code"] for g in page["items"]] for page in (listed, with_lessons)]
    assert codes == [[], [code.replace("-", "")]], codes

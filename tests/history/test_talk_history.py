"""A finished game keeps its talk: the game API, the replay data and the export carry it,
and an import checks it as live chat is checked."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from fastapi.testclient import TestClient

from tests.stored import store_games

from .helpers import Played

TALK = (
    {"n": 1, "kind": "chat", "channel": "players", "author": "p0", "seat": 0, "name": "Ada",
     "text": "good luck <3", "reaction": None, "after": 0, "at": 5},
    {"n": 2, "kind": "chat", "channel": "spectators", "author": "w1", "seat": None,
     "name": None, "text": None, "reaction": "coffee", "after": 3, "at": 9},
    {"n": 3, "kind": "timeout", "seat": 1, "away": False, "after": 4, "at": 12},
)


def test_export_and_replay_carry_the_talk(
    games: list[Played], empty_db_url: str, make_client: Callable[[str | None], TestClient],
) -> None:
    [game_id] = store_games(empty_db_url, [replace(games[0].record, talk=TALK)])
    api = make_client(empty_db_url)
    assert api.get(f"/api/games/{game_id}").json()["talk"] == list(TALK)
    doc = api.get(f"/api/games/{game_id}/export").json()
    assert doc["talk"] == list(TALK)
    assert api.get(f"/api/games/{game_id}/replay").json()["talk"] == list(TALK)
    bad = {**doc, "talk": [{**TALK[0], "text": "ring\x07"}]}
    refused = api.post("/api/games/import", json=bad)
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "malformed"
    missing = {k: v for k, v in doc.items() if k != "talk"}  # older exports have no talk
    imported = api.post("/api/games/import", json=missing)
    assert imported.status_code == 201, imported.text
    assert api.get(f"/api/games/{imported.json()['id']}").json()["talk"] == []

"""What happened lately: a viewer arriving mid-game gets the room's last events over HTTP
(GET /api/rooms/{code}/events), the same events patch frames carried, oldest first."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from server.config import Settings
from server.main import create_app
from server.rooms import NullJournal

DOC = Path(__file__).resolve().parents[2] / "docs" / "PROTOCOL.md"


def keys(value: Any) -> set[str]:
    """Every key of every object in a JSON value, however deep."""
    if isinstance(value, dict):
        return set(value).union(*(keys(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(keys(v) for v in value))
    return set()


def app_client() -> TestClient:
    settings = Settings(_env_file=None, TEST_FIXED_SEED=7, BOT_WORKERS=0,
                        ALLOWED_HOSTS=["testserver"])  # the TestClient's Host
    return TestClient(create_app(settings, journal=NullJournal()))


def test_recent_events_follow_the_game_and_stop_at_upto() -> None:
    with app_client() as client:
        made = client.post("/api/rooms", json={"players": 2, "starting_player": 0}).json()
        code, host = made["code"], made["host_token"]
        client.post(f"/api/rooms/{code}/join", json={"name": "Ada", "seat": 0})
        client.post(f"/api/rooms/{code}/join", json={"name": "Bram", "seat": 1})
        assert client.post(f"/api/rooms/{code}/start", json={"token": host}).status_code == 200
        got = client.get(f"/api/rooms/{code}/events").json()
        kinds = [e["event"]["type"] for e in got["events"]]
        assert kinds == ["seat_joined", "seat_joined", "game_started"]
        versions = [e["v"] for e in got["events"]]
        assert versions == sorted(versions) and versions[-1] == got["v"]
        assert got["events"][0]["event"] == {"type": "seat_joined", "seat": 0, "name": "Ada"}
        earlier = client.get(f"/api/rooms/{code}/events", params={"upto": versions[1]}).json()
        assert [e["event"]["type"] for e in earlier["events"]] == ["seat_joined", "seat_joined"]
        # Nothing hidden: no seed or deck order in any event before the game is over.
        assert not {"seed", "deck_order"} & keys(got), keys(got)
        assert client.get("/api/rooms/ZZZZ-ZZZZ/events").status_code == 404


def test_the_events_route_is_documented() -> None:
    text = DOC.read_text()
    assert re.search(r"`GET /api/rooms/\{code\}/events\?upto=V`", text)
    assert "### What happened lately" in text

"""An option is one declaration: a room option added as one field of RoomOptions, and
nothing else, is taken by the API, kept by the journal and restored after a real restart
(issue 44: it used to come back as its default unless also added to `to_dict` by hand)."""

from __future__ import annotations

from pathlib import Path

import httpx

from tests.serving import edited_sources, served_process

# What a developer adds to server/rooms/options.py for a new room option: one field.
DUMMY = '''    dummy: bool = field(default=False, metadata={
        "description": "a test option", "control": "check"})

'''
ANCHOR = "    def __post_init__(self) -> None:"


def test_a_new_room_option_is_restored_after_a_restart(tmp_path: Path) -> None:
    src = edited_sources(tmp_path / "src", {"server/rooms/options.py": (ANCHOR, DUMMY + ANCHOR)})
    database = tmp_path / "data" / "rooms.db"
    with served_process(database, cwd=src) as (url, _):
        created = httpx.post(f"{url}/api/rooms", json={"players": 2, "dummy": True}).json()
        code, host = created["code"], created["host_token"]
        for name in ("Ana", "Bo"):
            assert httpx.post(f"{url}/api/rooms/{code}/join", json={"name": name}).is_success
        assert httpx.post(f"{url}/api/rooms/{code}/start", json={"token": host}).is_success
    with served_process(database, cwd=src) as (url, _):
        info = httpx.get(f"{url}/api/rooms/{code}").json()
    assert info["status"] == "playing"
    assert info["options"]["dummy"] is True

"""An option is one declaration: a room option added as one field of RoomOptions, and
nothing else, is taken by the API, kept by the journal and restored after a real restart
(issue 44: it used to come back as its default unless also added to `to_dict` by hand)."""

from __future__ import annotations

import shutil
from pathlib import Path

import httpx

from tests.serving import ROOT, served_process

# What a developer adds to server/rooms/options.py for a new room option: one field.
DUMMY = '''    dummy: bool = field(default=False, metadata={
        "description": "a test option", "control": "check"})

'''
ANCHOR = "    def __post_init__(self) -> None:"


def sources_with_a_new_option(tmp_path: Path) -> Path:
    """A copy of the server's sources with one room option added, run from there."""
    src = tmp_path / "src"
    shutil.copytree(ROOT / "server", src / "server", ignore=shutil.ignore_patterns("__pycache__"))
    for shared in ("migrations", "templates", "static"):
        (src / shared).symlink_to(ROOT / shared)
    options = src / "server" / "rooms" / "options.py"
    text = options.read_text()
    assert text.count(ANCHOR) == 1
    options.write_text(text.replace(ANCHOR, DUMMY + ANCHOR))
    return src


def test_a_new_room_option_is_restored_after_a_restart(tmp_path: Path) -> None:
    src, database = sources_with_a_new_option(tmp_path), tmp_path / "data" / "rooms.db"
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

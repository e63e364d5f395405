"""Engine upgrades keep live games (issue 44): a room journaled by the previous release
(journals/previous-release.json: its rows, recorded from a real server of that release) is
restored by the next release's engine when its action log replays there, and played on;
refused, with the action named, only when it does not.

The next release is a copy of these sources as a change would leave them: RULES_VERSION
bumped with the previous version kept in REPLAYED_VERSIONS, and a new action type added (or
one taken away, for the refusal), run as a real `python -m server` on a real database."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

from server.db import store
from server.db.migrate import upgrade
from server.db.records import ActionRecord, NewRoom, SeatRecord
from server.db.session import make_engine, session_factory
from server.rules import RULES_VERSION
from tests.rules.test_action_module import MODULE as RETURN_ALL
from tests.serving import edited_sources, served_process

from .live import Player

JOURNAL = json.loads((Path(__file__).parent / "journals" / "previous-release.json").read_text())
AT = datetime(2026, 12, 5, tzinfo=UTC)
VERSIONS = "RULES_VERSION = 2\n"
NEXT = f"RULES_VERSION = {RULES_VERSION + 1}\n"
REPLAYED = "REPLAYED_VERSIONS = frozenset({2})\n"
STILL_REPLAYED = f"REPLAYED_VERSIONS = frozenset({{2, {RULES_VERSION + 1}}})\n"


def next_release(into: Path, **change: Any) -> Path:
    return edited_sources(into, {"server/rules/data.py": (VERSIONS + _between() + REPLAYED,
                                                          NEXT + _between() + STILL_REPLAYED)},
                          **change)


def _between() -> str:
    """The comment between the two declarations in server/rules/data.py, as it stands."""
    text = (Path(__file__).resolve().parents[2] / "server" / "rules" / "data.py").read_text()
    return text[text.index(VERSIONS) + len(VERSIONS):text.index(REPLAYED)]


def journal_into(database: Path) -> None:
    """The previous release's rows, written into a fresh database of this schema."""
    url = f"sqlite+aiosqlite:///{database}"
    database.parent.mkdir(parents=True, exist_ok=True)
    upgrade(url)
    room = NewRoom(JOURNAL["code"], JOURNAL["options"], JOURNAL["seed"],
                   JOURNAL["rules_version"], JOURNAL["host_token_hash"], AT,
                   tuple(SeatRecord(s["seat"], s["name"], s["bot"], s["token_hash"])
                         for s in JOURNAL["seats"]))

    async def write() -> None:
        engine = make_engine(url)
        try:
            async with session_factory(engine).begin() as s:
                await store.create_room(s, room)
                await store.set_seats(s, room.code, room.seats, JOURNAL["host_seat"])
                await store.start_room(s, room.code, options=room.options, seed=room.seed,
                                       started_at=AT)
                await store.append_actions(s, [ActionRecord(room.code, seq, seat, action, AT)
                                               for seq, seat, action in JOURNAL["actions"]])
        finally:
            await engine.dispose()

    asyncio.run(write())


def test_a_room_of_the_previous_release_is_restored_and_played_on(tmp_path: Path) -> None:
    assert JOURNAL["rules_version"] == RULES_VERSION  # the release before the next one
    src = next_release(tmp_path / "src",
                       added={"server/rules/actions/return_all.py": RETURN_ALL})
    database = tmp_path / "data" / "rooms.db"
    journal_into(database)
    with served_process(database, cwd=src) as (url, _):
        assert httpx.get(f"{url}/api/rules-data").json()["rules_version"] == RULES_VERSION + 1
        info = httpx.get(f"{url}/api/rooms/{JOURNAL['code']}").json()
        assert info["status"] == "playing" and "notice" not in info
        ws = url.replace("http", "ws", 1) + f"/ws/{JOURNAL['code']}"
        players = [Player(ws, token) for token in JOURNAL["tokens"]]
        assert players[0].game()["phase"] != "over"
        rng, used = random.Random(1), 0
        for _ in range(20):  # played on under the new rules, to their new action
            target = max(p.v for p in players)
            for p in players:
                while p.v < target:
                    p.recv()
            actor = players[players[0].game()["current"]]
            legal = actor.game()["legal"]
            new = [a for a in legal if a["type"] == "return_all"]
            actor.act(new[0] if new else rng.choice(legal))
            used += bool(new)
        assert used
        for p in players:
            p.close()
    with sqlite3.connect(database) as rows:  # journaled after the old ones, in order
        assert rows.execute("SELECT count(*), max(seq) FROM journal").fetchone() == (
            len(JOURNAL["actions"]) + 20,) * 2


def test_a_room_whose_log_no_longer_replays_is_refused_naming_the_action(
    tmp_path: Path,
) -> None:
    src = next_release(tmp_path / "src", removed=("server/rules/actions/return_.py",))
    database = tmp_path / "data" / "rooms.db"
    journal_into(database)
    first = next(n for n, (_, _, a) in enumerate(JOURNAL["actions"], start=1)
                 if a["type"] == "return")
    with served_process(database, cwd=src) as (url, _):
        info = httpx.get(f"{url}/api/rooms/{JOURNAL['code']}").json()
    assert info["status"] == "incompatible"
    assert info["notice"].startswith(
        f"this game was played under rules version 2 and does not replay under version "
        f"{RULES_VERSION + 1}: its action {first} ('return' by seat ")
    assert "unknown action type: 'return'" in info["notice"]
    assert [s["name"] for s in info["seats"]] == ["Ana", "Bo", "Cy"]

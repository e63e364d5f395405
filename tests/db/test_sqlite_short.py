"""The live journal's short way (server.db.sqlite_short: prepared statements on the SQLite
writer's connection) leaves exactly the rows the store's ORM path leaves, and hands every
surprise to that path, which checks or refuses it as before. On PostgreSQL the same
scenarios check the store itself."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from server.db import ops, sqlite_writer, store
from server.db.journal import Journal
from server.db.records import ActionRecord, JournalConflict, SeatRecord, UnknownRoom
from server.db.session import session_factory
from tests.stored import game_by_room

from .conftest import UNHURRIED, Clock
from .helpers import finished, new_room

pytestmark = pytest.mark.asyncio

# Each table's columns as stored (text, not decoded), the room's code and ids left out.
DUMPS = {
    "rooms": "SELECT CAST(options AS TEXT), seed, rules_version, status, host_token_hash, "
             "CAST(created_at AS TEXT), CAST(started_at AS TEXT), CAST(finished_at AS TEXT), "
             "host_seat, owner_epoch FROM rooms WHERE code = :code",
    "room_seats": "SELECT s.seat, s.name, s.bot, s.token_hash FROM room_seats s "
                  "JOIN rooms r ON r.id = s.room_id WHERE r.code = :code ORDER BY s.seat",
    "journal": "SELECT j.seq, j.seat, CAST(j.action AS TEXT), CAST(j.created_at AS TEXT) "
               "FROM journal j JOIN rooms r ON r.id = j.room_id WHERE r.code = :code "
               "ORDER BY j.seq",
    "games": "SELECT seed, CAST(options AS TEXT), rules_version, CAST(actions AS TEXT), "
             "action_count, turns, end_reason, CAST(result AS TEXT), CAST(talk AS TEXT), "
             "CAST(started_at AS TEXT), CAST(ended_at AS TEXT) FROM games "
             "WHERE room_code = :code",
    "game_players": "SELECT p.seat, p.name, p.name_key, p.bot, p.stand_in, p.place, "
                    "p.winner, p.total, p.orders, p.upgrades, p.penalties, p.rush, "
                    "CAST(p.tiles AS TEXT) FROM game_players p JOIN games g ON g.id = p.game_id "
                    "WHERE g.room_code = :code ORDER BY p.seat",
    "room_talk": "SELECT t.n, t.kind, CAST(t.data AS TEXT), CAST(t.created_at AS TEXT) "
                 "FROM room_talk t JOIN rooms r ON r.id = t.room_id WHERE r.code = :code "
                 "ORDER BY t.n",
}


async def dump(engine: AsyncEngine, code: str) -> dict[str, list[tuple[Any, ...]]]:
    async with engine.connect() as conn:
        return {table: [tuple(row) for row in await conn.execute(text(sql), {"code": code})]
                for table, sql in DUMPS.items()}


def a_game(code: str, clock: Clock) -> tuple[list[ops.Op], list[ops.Op]]:
    """A room's whole life as journal operations: until its last action, then its end.
    It opens with two seats, a third joins, the host seat moves, one leaves and another is
    renamed (an accent and a quote in a name), then it plays a real game to the end."""
    room = new_room(code, clock(), players=2, seed=11)
    two = room.seats
    game = finished(room, clock(), clock(), names=("Ada", "Bot 'B' ☕"))
    game = replace(game, players=(SeatRecord(0, "Ada"), SeatRecord(1, "Bot 'B' ☕", "greedy",
                                                                     stand_in="strong")),
                   talk=({"n": 1, "kind": "chat", "seat": 0, "text": "gg é", "after": 3},))
    playing = [
        ops.room_created(room),
        ops.seats_changed(code, (*two, SeatRecord(2, "Chloé", None, "h" * 64)), host_seat=1),
        ops.seats_changed(code, (two[0], SeatRecord(1, "Bot 'B' ☕", "greedy")), host_seat=0),
        ops.room_started(code, room.options, room.seed, clock()),
        *(ops.action(ActionRecord(code, seq, seat, action, clock()))
          for seq, (seat, action) in enumerate(game.actions, start=1)),
        # Talk: chat, a timeout, the clock checkpoint (replaced), a line again (kept once).
        ops.talk(code, {"n": 0, "kind": "clock", "turn_ms": 9}, clock()),
        ops.talk(code, {"n": 1, "kind": "chat", "seat": 0, "text": "gg é", "after": 3}, clock()),
        ops.talk(code, {"n": 2, "kind": "timeout", "seat": 1, "after": 4}, clock()),
        ops.talk(code, {"n": 0, "kind": "clock", "turn_ms": 5}, clock()),
        ops.talk(code, {"n": 1, "kind": "chat", "seat": 0, "text": "again", "after": 3}, clock()),
        ops.action(ActionRecord(code, len(game.actions) + 1, 0, {"type": "stop"}, clock())),
    ]
    return playing, [ops.game_finished(game)]


def renamed(batch: list[ops.Op], code: str) -> list[ops.Op]:
    return [{**op, "code": code} for op in batch]


async def live(journal: Journal, batch: list[ops.Op], together: bool) -> None:
    """Hand the operations over as the rooms do: each awaited, or all at once (one batch
    mixing every kind)."""
    if together:
        await asyncio.gather(*(journal.submit(dict(op)) for op in batch))
    else:
        for op in batch:
            await journal.submit(dict(op))


@pytest.fixture
def long_way(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The kinds of the live operations the SQLite writer hands to the ORM path."""
    taken: list[str] = []
    apply = sqlite_writer._apply

    def counted(conn: Any, batch: Any, replaying: bool, open_rooms: Any) -> None:
        if not replaying:
            taken.extend(op["op"] for op in batch)
        apply(conn, batch, replaying, open_rooms)

    monkeypatch.setattr(sqlite_writer, "_apply", counted)
    return taken


async def replayed(engine: AsyncEngine, batch: list[ops.Op]) -> None:
    """The ORM path: a replay of the fallback file applies operations through the store."""
    async with session_factory(engine)() as session, session.begin():
        await ops.apply_ops(session, batch, replaying=True)


@pytest.mark.parametrize("together", [False, True], ids=["one-by-one", "one-batch"])
async def test_a_whole_game_journaled_live_leaves_the_rows_a_replay_leaves(
    engine: AsyncEngine, tmp_path: Path, clock: Clock, together: bool, long_way: list[str]
) -> None:
    playing, end = a_game("LIVEGAME", clock)
    journal = Journal(engine, tmp_path / "fallback.jsonl", clock=clock, write_timeout=UNHURRIED)
    await journal.start()
    await live(journal, playing, together)
    await replayed(engine, renamed(playing, "ORMGAME1"))
    mid_game = await dump(engine, "LIVEGAME")
    assert mid_game == await dump(engine, "ORMGAME1")
    assert len(mid_game["journal"]) == len(playing) - 9 and len(mid_game["room_seats"]) == 2
    assert [(n, kind) for n, kind, *_ in mid_game["room_talk"]] == [
        (0, "clock"), (1, "chat"), (2, "timeout")]
    assert '"turn_ms":5' in mid_game["room_talk"][0][2] and "gg" in mid_game["room_talk"][1][2]
    await live(journal, end, together)
    await journal.stop()
    await replayed(engine, renamed(end, "ORMGAME1"))
    over = await dump(engine, "LIVEGAME")
    assert over == await dump(engine, "ORMGAME1")
    assert over["journal"] == [] and len(over["game_players"]) == 2
    async with session_factory(engine)() as session:
        saved = await game_by_room(session, "LIVEGAME")
    assert saved is not None and saved.summary.players[1].stand_in == "strong"
    assert long_way == []  # on SQLite, all of it went the short way


async def test_surprises_are_checked_or_refused_as_before(
    engine: AsyncEngine, tmp_path: Path, clock: Clock, long_way: list[str]
) -> None:
    journal = Journal(engine, tmp_path / "fallback.jsonl", clock=clock, write_timeout=UNHURRIED)
    await journal.start()
    room = new_room("SURPRISE", clock(), players=2)
    await journal.room_created(room)
    await journal.room_created(room)  # the same room again: nothing changes
    with pytest.raises(JournalConflict):  # the code taken by another host
        await journal.room_created(replace(room, host_token_hash="other"))
    with pytest.raises(UnknownRoom):
        await journal.seats_changed("NOSUCH01", room.seats)
    await journal.room_started(room.code, options=room.options, seed=room.seed)
    game = finished(room, clock(), clock())
    for seq, (seat, action) in enumerate(game.actions, start=1):
        await journal.action_accepted(room.code, seq, seat, action)
    await journal.game_finished(game)
    await journal.game_finished(game)  # saved already: nothing changes
    with pytest.raises(UnknownRoom):  # the room is finished
        await journal.action_accepted(room.code, len(game.actions) + 1, 0, {"type": "end_turn"})
    await journal.seats_changed(room.code, ())  # a finished room's seats stay
    await journal.stop()
    rows = await dump(engine, room.code)
    assert len(rows["games"]) == 1 and rows["journal"] == [] and len(rows["room_seats"]) == 2
    if engine.dialect.name == "sqlite":
        # After the ORM path wrote a room, the short way knows it again from its first
        # action on (the ORM path looks the room up then).
        assert long_way == ["room_created", "room_created", "seats_changed", "room_started",
                            "action", "game_finished", "action", "seats_changed"]


async def test_a_room_from_before_a_restart_is_written_too(
    engine: AsyncEngine, tmp_path: Path, clock: Clock, long_way: list[str]
) -> None:
    """A new journal has no ids cached: its writes of an unfinished room take the ORM path
    until its first action, whose look-up the short way remembers."""
    room = new_room("RESTARTS", clock(), players=2)
    first = Journal(engine, tmp_path / "fallback.jsonl", clock=clock, write_timeout=UNHURRIED)
    await first.start()
    await first.room_created(room)
    await first.stop()
    second = Journal(engine, tmp_path / "fallback.jsonl", clock=clock, write_timeout=UNHURRIED)
    await second.start()
    await second.seats_changed(room.code, room.seats[:1], host_seat=0)
    await second.room_started(room.code, options=room.options, seed=room.seed)
    game = finished(room, clock(), clock(), names=("Ada", "Seat 2"))
    for seq, (seat, action) in enumerate(game.actions[:5], start=1):
        await second.action_accepted(room.code, seq, seat, action)
    await second.stop()
    async with session_factory(engine)() as session:
        loaded = await store.load_unfinished_room(session, room.code)
    assert loaded is not None and loaded.status == "playing" and loaded.host_seat == 0
    assert loaded.seats == room.seats[:1] and len(loaded.actions) == 5
    if engine.dialect.name == "sqlite":
        assert long_way == ["seats_changed", "room_started", "action"]  # then the short way

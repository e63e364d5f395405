"""Round trips through the query functions, on SQLite and PostgreSQL."""

from __future__ import annotations

from dataclasses import replace

import pytest
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from server.db import store
from server.db.models import JournalEntry, Room
from server.db.records import ActionRecord, JournalConflict, SeatRecord, UnknownRoom
from server.db.session import session_factory
from tests.stored import game_by_room

from .conftest import Clock
from .helpers import finished, new_room, replay

pytestmark = pytest.mark.asyncio


def acts(code: str, clock: Clock, seqs: range, seat: int = 0) -> list[ActionRecord]:
    return [ActionRecord(code, s, seat, {"type": "step", "cell": s % 16}, clock()) for s in seqs]


async def test_unfinished_room_round_trip(engine: AsyncEngine, clock: Clock) -> None:
    sessions = session_factory(engine)
    room = new_room("ABCD2345", clock(), players=4, seed=2**64 - 1)
    async with sessions.begin() as s:
        await store.create_room(s, room)
        await store.create_room(s, new_room("WAIT0000", clock()))
        await store.set_seats(s, "ABCD2345", room.seats[:3] + (SeatRecord(3, "Bot", "random"),),
                              host_seat=1)
        await store.start_room(s, "ABCD2345", options={**room.options, "starting_player": 2},
                               seed=2**64 - 1, started_at=clock())
    async with sessions.begin() as s:  # appended in two groups, out of order within one
        await store.append_actions(s, acts("ABCD2345", clock, range(5, 9)))
        await store.append_actions(s, acts("ABCD2345", clock, range(1, 5), seat=1))
    async with sessions() as s:
        playing, waiting = await store.load_unfinished_rooms(s)
    assert (playing.code, playing.status, waiting.status) == ("ABCD2345", "playing", "waiting")
    assert playing.seed == 2**64 - 1 and playing.options["starting_player"] == 2
    assert playing.host_token_hash == store.hash_token("host-ABCD2345")
    assert playing.seats[3] == SeatRecord(3, "Bot", "random", None)
    assert (playing.host_seat, waiting.host_seat) == (1, None)
    assert playing.seats[0].token_hash == store.hash_token("seat-0")
    assert [seq for seq, _, _ in playing.actions] == list(range(1, 9))
    assert playing.actions[0] == (1, 1, {"type": "step", "cell": 1})
    assert playing.started_at is not None and playing.started_at.tzinfo is not None
    assert waiting.actions == () and len(waiting.seats) == 3


async def test_a_double_write_is_impossible(engine: AsyncEngine, clock: Clock) -> None:
    sessions = session_factory(engine)
    async with sessions.begin() as s:
        await store.create_room(s, new_room("DOUBLE01", clock()))
        await store.append_actions(s, acts("DOUBLE01", clock, range(1, 3)))
    async with sessions.begin() as s:  # the constraint itself
        room_id = (await s.scalars(Room.__table__.select())).first()
        s.add(JournalEntry(room_id=room_id, seq=1, seat=0, action={}, created_at=clock()))
        with pytest.raises(IntegrityError):
            await s.flush()
    async with sessions.begin() as s:  # the same write again is a no-op (a replay)
        await store.append_actions(s, acts("DOUBLE01", clock, range(1, 3)))
    with pytest.raises(JournalConflict):  # a different write under the same key is refused
        async with sessions.begin() as s:
            await store.append_actions(
                s, [ActionRecord("DOUBLE01", 2, 1, {"type": "stop"}, clock())]
            )
    with pytest.raises(JournalConflict):  # also twice in one batch
        async with sessions.begin() as s:
            await store.append_actions(s, [
                ActionRecord("DOUBLE01", 3, 0, {"type": "stop"}, clock()),
                ActionRecord("DOUBLE01", 3, 0, {"type": "end_turn"}, clock()),
            ])
    async with sessions() as s:
        (room,) = await store.load_unfinished_rooms(s)
    assert [a[0] for a in room.actions] == [1, 2] and room.actions[1][1] == 0


async def test_unknown_or_taken_room_codes(engine: AsyncEngine, clock: Clock) -> None:
    sessions = session_factory(engine)
    async with sessions.begin() as s:
        await store.create_room(s, new_room("TAKEN001", clock()))
        await store.create_room(s, new_room("TAKEN001", clock()))  # same host: a replay
    other = new_room("TAKEN001", clock())
    with pytest.raises(JournalConflict):
        async with sessions.begin() as s:
            await store.create_room(s, replace(other, host_token_hash="x" * 64))
    with pytest.raises(UnknownRoom):
        async with sessions.begin() as s:
            await store.append_actions(s, acts("NOPE0000", clock, range(1, 2)))


async def test_finished_game_round_trip_and_replay(engine: AsyncEngine, clock: Clock) -> None:
    sessions = session_factory(engine)
    room = new_room("FIN00001", clock(), players=3, seed=11)
    game = finished(room, clock(), clock())
    async with sessions.begin() as s:
        await store.create_room(s, room)
        await store.start_room(s, room.code, options=room.options, seed=room.seed,
                               started_at=game.started_at)
        await store.append_actions(s, [
            ActionRecord(room.code, i + 1, seat, a, clock())
            for i, (seat, a) in enumerate(game.actions)
        ])
    async with sessions.begin() as s:
        game_id = await store.save_finished_game(s, game)
    async with sessions.begin() as s:  # saving twice changes nothing
        assert await store.save_finished_game(s, game) == game_id
    async with sessions() as s:
        detail = await store.get_game(s, game_id)
        assert await store.load_unfinished_rooms(s) == []  # room closed, journal dropped
        assert await s.scalar(JournalEntry.__table__.select().with_only_columns(
            JournalEntry.seq)) is None
        assert await game_by_room(s, room.code) == detail
        assert await store.get_game(s, game_id + 1) is None
    assert detail is not None
    summary = detail.summary
    assert summary.action_count == len(game.actions) and detail.actions == game.actions
    assert summary.end_reason == game.result["reason"]
    assert summary.turns == max(game.result["turns"])
    assert summary.started_at == game.started_at and summary.ended_at == game.ended_at
    assert detail.result == game.result and detail.seed == 11
    for p in summary.players:
        score = game.result["scores"][p.seat]
        assert (p.total, p.orders, p.penalties, list(p.tiles)) == (
            score["total"], score["orders"], score["penalties"], score["tiles"])
        assert p.place == game.result["places"][p.seat]
        assert p.winner == (p.seat in game.result["winners"])
    # the stored record replays to the same result
    assert replay(detail.seed, detail.options["players"], detail.actions) == game.result


async def test_list_games_pages_and_filters(engine: AsyncEngine, clock: Clock) -> None:
    sessions = session_factory(engine)
    rosters = [("Ada", "Bram"), ("ada ", "Zoé"), ("Bram", "Chloé"), ("Dev", "Ada"),
               ("Eve", "Bram")]
    async with sessions.begin() as s:
        for i, names in enumerate(rosters):
            room = new_room(f"LIST{i:04}", clock(), players=2, seed=100 + i)
            await store.create_room(s, room)
            await store.save_finished_game(s, finished(room, clock(), clock(), names))
    async with sessions() as s:
        first = await store.list_games(s, page=1, per_page=2)
        third = await store.list_games(s, page=3, per_page=2)
        ada = await store.list_games(s, player="ADA")
        nobody = await store.list_games(s, player="Mallory")
    assert first.total == 5 and [g.room_code for g in first.items] == ["LIST0004", "LIST0003"]
    assert [g.room_code for g in third.items] == ["LIST0000"]
    assert first.items[0].players[0].name == "Eve"
    assert ada.total == 3
    assert [g.room_code for g in ada.items] == ["LIST0003", "LIST0001", "LIST0000"]
    assert nobody.total == 0 and nobody.items == ()


async def test_abandoned_rooms_are_not_rebuilt(engine: AsyncEngine, clock: Clock) -> None:
    sessions = session_factory(engine)
    async with sessions.begin() as s:
        await store.create_room(s, new_room("GONE0001", clock()))
        await store.append_actions(s, acts("GONE0001", clock, range(1, 4)))
        await store.abandon_room(s, "GONE0001", clock())
    async with sessions() as s:
        assert await store.load_unfinished_rooms(s) == []
    with pytest.raises(UnknownRoom):  # a live write to a closed room is a bug
        async with sessions.begin() as s:
            await store.append_actions(s, acts("GONE0001", clock, range(4, 5)))
    async with sessions.begin() as s:  # a replayed one is skipped
        await store.append_actions(s, acts("GONE0001", clock, range(1, 5)), replaying=True)

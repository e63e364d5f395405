"""The turn clock on the room's injected clock: turn time then bank, timeouts and the
stand-in finishing the turn, away after timeouts in a row, a restart costs nobody time.
No sleeps: time moves only when a test moves it."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from server.db.records import UnfinishedRoom
from server.persist.recovery import rebuild
from server.rooms import Connection, RoomError, RoomManager, RoomOptions, chat, seating, timeouts
from server.rooms.timeouts import ClockKeeper
from server.rooms.turnclock import AWAY_AFTER, ClockOption, ClockOptionError, TurnClock
from server.rules import RULES_VERSION


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class TalkJournal:
    """The room journal hooks, keeping only the talk items (as the database would)."""

    def __init__(self) -> None:
        self.talk_items: dict[int, dict[str, Any]] = {}

    async def talk(self, room, item) -> None:
        self.talk_items[item["n"]] = dict(item)

    async def room_created(self, room) -> None: ...
    async def seats_changed(self, room) -> None: ...
    async def started(self, room) -> None: ...
    async def accepted(self, room, seq, action, seat) -> None: ...
    async def finished(self, room) -> None: ...
    async def abandoned(self, room) -> None: ...


async def clocked_room(settings, clock: Clock, turn: int = 10, bank: int = 20, bot: bool = False):
    journal = TalkJournal()
    manager = RoomManager(settings, journal, clock=clock)
    room, host = await manager.create(RoomOptions(2, clock=ClockOption(turn, bank)), "t")
    tokens = [(await seating.join(room, "Ana", 0))[1]]
    if bot:
        await seating.add_bot(room, host, 1, "random")
    else:
        tokens.append((await seating.join(room, "Bo", 1))[1])
    conns = [Connection() for _ in tokens]
    for conn, token in zip(conns, tokens, strict=True):
        await room.attach(conn, token, None)
    await seating.start(room, host)
    return manager, room, journal, conns


def left(room) -> tuple[int, int]:
    info = room.info()["clock"]
    return info["turn_ms"], info["bank_ms"][info["seat"]]


async def finish_turn(room, bot: str | None = None) -> None:
    """The seat to act plays its last legal action until the turn passes."""
    seat, turn = room.game.current, room.game.turn
    while room.game.current == seat and room.game.turn == turn and room.game.phase != "over":
        await room.act(seat, room.view(seat)["game"]["legal"][-1], room.v, bot=bot)


def test_clock_options_are_bounded():
    with pytest.raises(ClockOptionError):
        ClockOption(5, 60)
    with pytest.raises(ClockOptionError):
        ClockOption(60, 99999).check("realtime")  # a bank of days is turn-based only
    with pytest.raises(ClockOptionError):
        ClockOption(60, 99999).check("turn_based")  # a minute a move is real time only
    ClockOption(86400, 3 * 86400).check("turn_based")
    with pytest.raises(ClockOptionError):
        ClockOption(86400, 3 * 86400).check("realtime")
    with pytest.raises(ClockOptionError):
        ClockOption(15 * 86400, 0)
    assert ClockOption.from_value({"turn": 60, "bank": 300}) == ClockOption(60, 300)
    with pytest.raises(ClockOptionError):
        ClockOption.from_value({"turn": 60})


def test_turn_time_is_spent_before_the_bank_and_the_bank_carries_over():
    clock = TurnClock(ClockOption(10, 20), 2)
    clock.sync(0.0, (1, 0), human=True)
    assert clock.left(4.0) == (6000, 20000)
    assert clock.left(15.0) == (0, 15000)
    assert clock.deadline() == 30.0 and not clock.expired(29.999) and clock.expired(30.0)
    clock.sync(15.0, (1, 1), human=True)  # seat 0 ends its turn with 15 s of bank
    assert clock.bank_ms == [15000, 20000] and clock.left(15.0) == (10000, 20000)
    clock.sync(16.0, (1, 1), human=False)  # a bot plays the seat: the clock stops
    assert clock.left(500.0) == (9000, 20000) and clock.deadline() is None


@pytest.mark.asyncio
async def test_views_carry_remaining_time_at_the_version_server_time(settings):
    clock = Clock()
    _, room, _, _ = await clocked_room(settings, clock)
    seat = room.game.current
    view = room.view(seat)["room"]["clock"]
    assert view == {"seat": seat, "running": True, "turn_ms": 10000, "bank_ms": [20000, 20000],
                    "at": 1_000_000}
    clock.now += 12.5
    room.commit([{"type": "nothing"}])  # any new version carries the clock as of its time
    assert room.view(seat)["room"]["clock"]["turn_ms"] == 0
    assert room.view(seat)["room"]["clock"]["bank_ms"][seat] == 17500
    assert room.view(seat)["room"]["clock"]["at"] == 1_012_500


@pytest.mark.asyncio
async def test_a_timed_out_turn_is_finished_by_the_stand_in_and_the_log_says_so(settings):
    clock = Clock()
    manager, room, journal, conns = await clocked_room(settings, clock)
    keeper = ClockKeeper(manager, "greedy")
    seat = room.game.current
    clock.now += 29.9
    assert await keeper.check() == pytest.approx(1030.0)  # not yet: the soonest deadline
    assert room.seats[seat].stand_in is None
    clock.now += 0.1
    v = room.v
    await keeper.check()
    assert room.v == v + 1 and room.seats[seat].stand_in == "greedy"
    entry = room.history.entries[-1]
    assert entry.events == [{"type": "timeout", "seat": seat, "level": "greedy", "away": False}]
    assert room.view(seat)["room"]["clock"]["running"] is False
    assert [i["kind"] for i in journal.talk_items.values()] == ["clock", "timeout"]
    # The player can no longer play this turn; the refusal changes nothing.
    before = room.view(seat)
    with pytest.raises(RoomError) as refused:
        await room.act(seat, room.view(seat)["game"]["legal"][-1], room.v)
    assert refused.value.code == "timed_out" and room.view(seat) == before
    # The stand-in finishes the turn; the seat is its connected player's again after it.
    await finish_turn(room, bot="greedy")
    assert room.game.current != seat and room.seats[seat].stand_in is None
    assert room.seats[seat].timeouts == 1
    assert room.view(room.game.current)["room"]["clock"]["running"] is True


@pytest.mark.asyncio
async def test_an_act_after_the_deadline_is_refused_before_the_keeper_looks(settings):
    clock = Clock()
    _, room, _, _ = await clocked_room(settings, clock)
    seat = room.game.current
    clock.now += 30.0
    with pytest.raises(RoomError) as refused:
        await room.act(seat, room.view(seat)["game"]["legal"][-1], room.v)
    assert refused.value.code == "timed_out"


@pytest.mark.asyncio
async def test_timeouts_in_a_row_make_the_seat_away_until_the_player_is_back(settings):
    clock = Clock()
    manager, room, _, _ = await clocked_room(settings, clock)
    keeper = ClockKeeper(manager, "random")
    slow = room.game.current
    for n in range(1, AWAY_AFTER + 1):
        while room.game.current != slow:
            await finish_turn(room)
        clock.now += 31.0
        await keeper.check()
        assert room.seats[slow].timeouts == n
        await finish_turn(room, bot="random")
    info = room.info()["seats"][slow]
    assert info.get("away") is True and info["stand_in"] == "random" and info["connected"]
    while room.game.current != slow:
        await finish_turn(room)
    assert room.info()["clock"]["running"] is False  # a bot plays the away seat: no clock
    await timeouts.come_back(room, slow)
    info = room.info()["seats"][slow]
    assert "away" not in info and "stand_in" not in info
    assert room.history.entries[-1].events == [{"type": "back", "seat": slow}]
    assert room.info()["clock"]["running"] is True
    await finish_turn(room)  # the player plays again


@pytest.mark.asyncio
async def test_a_bot_seat_plays_without_a_clock(settings):
    clock = Clock()
    _, room, _, _ = await clocked_room(settings, clock, bot=True)
    while room.game.current != 1:
        await finish_turn(room)
    assert room.info()["clock"] == {**room.info()["clock"], "seat": 1, "running": False}
    clock.now += 10_000
    assert room.turn_clock.deadline() is None


@pytest.mark.asyncio
async def test_a_restart_costs_nobody_time(settings):
    """The clock is journaled at each new turn and at shutdown; a rebuilt room resumes
    from those remaining times, however long the server was down."""
    clock = Clock()
    manager, room, journal, _ = await clocked_room(settings, clock)
    seat = room.game.current
    clock.now += 14.0  # 10 s of turn and 4 s of bank used
    async with room.lock:
        await timeouts.save(room)  # what ClockKeeper.save_all does at shutdown
    stored = UnfinishedRoom(
        code=room.code, status="playing", options=room.options.to_dict(), seed=room.seed,
        rules_version=RULES_VERSION, host_token_hash=room.host_token_hash,
        created_at=datetime.now(UTC), started_at=datetime.now(UTC),
        seats=(), actions=tuple((i + 1, s, a) for i, (s, a) in enumerate(room.actions)),
        talk=tuple(journal.talk_items.values()),
    )
    later = Clock()
    later.now = 99_999.0  # hours later, another process
    again = rebuild(RoomManager(settings, clock=later), stored, base=1)
    assert again.info()["clock"]["seat"] == seat
    assert left(again) == (0, 16000)
    assert again.turn_clock.deadline() is None  # until its player is back (test_timeout_paths)


@pytest.mark.asyncio
async def test_chat_never_makes_a_version_nor_an_act_stale(settings):
    clock = Clock()
    _, room, _, conns = await clocked_room(settings, clock)
    seat = room.game.current
    v = room.v
    await chat.post(room, conns[seat], "one sec", None)
    await chat.post(room, conns[1 - seat], None, "thumbs")
    assert room.v == v
    await room.act(seat, room.view(seat)["game"]["legal"][-1], v)  # chosen before the chat


@pytest.mark.asyncio
async def test_a_clock_change_that_cannot_be_saved_is_refused_and_undone(settings):
    """The host's clock setting is acknowledged only once durable: with the journal down
    it is refused (503 unavailable) and the room keeps its old clock, sent to nobody."""
    journal = TalkJournal()
    manager = RoomManager(settings, journal, clock=Clock())
    room, host = await manager.create(RoomOptions(2, clock=ClockOption(10, 20)), "t")
    watcher = Connection()
    await room.attach(watcher, None, None)
    watcher.outbox.clear()
    before = room.v

    async def down(room, item) -> None:
        raise OSError("disk full")

    journal.talk = down
    with pytest.raises(RoomError) as refused:
        await seating.set_clock(room, host, {"turn": 30, "bank": 60})
    assert refused.value.code == "unavailable" and refused.value.status == 503
    assert room.options.clock == ClockOption(10, 20) and room.v == before
    assert watcher.outbox.empty()
    del journal.talk  # back up
    await seating.set_clock(room, host, {"turn": 30, "bank": 60})
    assert room.options.clock == ClockOption(30, 60) and room.v == before + 1
    assert journal.talk_items[0]["option"] == {"turn": 30, "bank": 60}

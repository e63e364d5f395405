"""Turn-based rooms on the injected room clock: a clock in hours and days that runs
whether or not its player is at the table, no idle expiry and no grace takeover while the
game is on; time running out is no silent loss (the others choose a stand-in for that turn
or the end, recorded as abandoned); a player may pause their clock once, for at most 7
days. No sleeps: time moves only when a test moves it."""

from __future__ import annotations

from typing import Any

import pytest
from test_timeout_paths import restarted
from test_turnclock import Clock, TalkJournal

from server.config import Settings
from server.rooms import Connection, RoomError, RoomManager, RoomOptions, late, seating
from server.rooms.timeouts import ClockKeeper
from server.rooms.turnclock import ClockOption

HOUR, DAY = 3600, 86400


class Journal(TalkJournal):
    def __init__(self) -> None:
        super().__init__()
        self.abandoned_rooms: list[Any] = []

    async def abandoned(self, room) -> None:
        self.abandoned_rooms.append((room.code, room.status, len(room.actions)))


TWO_DAYS = ClockOption(DAY, 2 * DAY)  # a day a move, two days of bank


async def turn_based(settings: Settings, clock: Clock, mode: str = "turn_based",
                     option: ClockOption | None = TWO_DAYS):
    journal = Journal()
    manager = RoomManager(settings, journal, clock=clock)
    options = RoomOptions(2, starting_player=0, clock=option, mode=mode)
    room, host = await manager.create(options, "t")
    tokens = [(await seating.join(room, name, i))[1] for i, name in enumerate(["Ana", "Bo"])]
    await seating.start(room, host)  # nobody connected: a turn-based table between moves
    return manager, room, journal, tokens


def left(room) -> int:
    info = room.info()["clock"]
    return info["turn_ms"] + info["bank_ms"][info["seat"]]


def settings() -> Settings:
    return Settings(_env_file=None, ROOM_IDLE_TTL=DAY, SEAT_GRACE=60)


@pytest.mark.asyncio
async def test_the_clock_runs_for_an_absent_player_and_the_room_is_kept() -> None:
    clock = Clock()
    manager, room, _, _ = await turn_based(settings(), clock)
    assert room.info()["clock"]["running"]  # nobody at the table, and yet it runs
    clock.now += 2 * DAY
    assert left(room) == DAY * 1000
    assert await manager.sweep() == []  # untouched for two days: kept
    room.commit([])
    # No SEAT_GRACE takeover for a turn-based seat: nobody counts as absent.
    assert all(seat.away_since is None for seat in room.seats)
    rt_manager, rt_room, _, _ = await turn_based(settings(), clock, "realtime", None)
    clock.now += 2 * DAY
    assert await rt_manager.sweep() == [rt_room.code]  # a real-time room does expire


def test_the_modes_have_their_own_bounds() -> None:
    RoomOptions(2, clock=ClockOption(12 * HOUR, DAY), mode="turn_based")
    with pytest.raises(ValueError):
        RoomOptions(2, clock=ClockOption(60, 300), mode="turn_based")
    with pytest.raises(ValueError):
        RoomOptions(2, clock=ClockOption(DAY, 0))  # real time
    with pytest.raises(ValueError):
        RoomOptions(2, mode="by_post")
    options = RoomOptions(2, clock=ClockOption(DAY, 3 * DAY), mode="turn_based")
    assert RoomOptions.from_dict(options.to_dict()) == options
    assert "mode" not in RoomOptions(2).to_dict()  # real time: stored as before modes


@pytest.mark.asyncio
async def test_a_late_player_loses_nothing_until_the_others_choose_a_stand_in() -> None:
    clock = Clock()
    manager, room, journal, tokens = await turn_based(settings(), clock)
    me = room.game.current  # the seat that will be late
    other = 1 - me
    clock.now += 3 * DAY
    await ClockKeeper(manager, "greedy").check()
    info = room.info()
    assert info["clock"]["late"] and not info["clock"]["running"]
    assert room.seats[me].stand_in is None  # no bot took over by itself
    assert room.recent.listed()[-1]["event"] == {"type": "late", "seat": me}
    with pytest.raises(RoomError) as refused:
        await late.stand_in(room, tokens[me], "greedy")  # not for the late player to choose
    assert refused.value.code == "forbidden"
    # A restart keeps the seat late (no stand-in appears by itself).
    _, again = restarted(Settings(_env_file=None), room, journal, clock)
    assert again.turn_clock.late and again.seats[me].stand_in is None
    await late.stand_in(room, tokens[other], "greedy")
    assert room.seats[me].stand_in == "greedy" and not room.info()["clock"]["late"]
    with pytest.raises(RoomError) as refused:
        await late.stand_in(room, tokens[other], "greedy")
    assert refused.value.code == "not_late"
    # The stand-in plays that turn only: then the seat is its player's again, though away.
    while room.game.current == me:
        await room.act(me, room.view(me)["game"]["legal"][-1], room.v, bot="greedy")
    assert room.seats[me].stand_in is None


@pytest.mark.asyncio
async def test_a_late_player_may_still_move_until_someone_chose() -> None:
    clock = Clock()
    manager, room, _, _ = await turn_based(settings(), clock)
    me = room.game.current
    clock.now += 3 * DAY
    await ClockKeeper(manager, "greedy").check()
    assert room.turn_clock.late
    turn = room.game.turn
    while room.game.current == me and room.game.turn == turn:
        await room.act(me, room.view(me)["game"]["legal"][-1], room.v)  # never timed_out
    assert not room.turn_clock.late  # the turn passed: nothing to choose any more


@pytest.mark.asyncio
async def test_the_others_may_end_a_late_game_as_abandoned() -> None:
    clock = Clock()
    manager, room, journal, tokens = await turn_based(settings(), clock)
    other = 1 - room.game.current
    with pytest.raises(RoomError) as refused:
        await manager.abandon_late(room, tokens[other])
    assert refused.value.code == "not_late"
    watcher = Connection()
    await room.attach(watcher, None, None)
    clock.now += 3 * DAY + 1
    await ClockKeeper(manager, "greedy").check()
    await manager.abandon_late(room, tokens[other])
    assert room.code not in manager.rooms
    assert journal.abandoned_rooms == [(room.code, "playing", 0)]
    assert watcher.closing and '"abandoned"' in str(list(watcher.outbox))


@pytest.mark.asyncio
async def test_away_pauses_a_clock_once_per_game_for_at_most_a_week() -> None:
    clock = Clock()
    manager, room, journal, tokens = await turn_based(settings(), clock)
    me = room.game.current
    await late.go_away(room, tokens[me], 48)
    clock.now += 2 * DAY
    assert left(room) == 3 * DAY * 1000  # two days away: none of it spent
    clock.now += HOUR
    assert left(room) == 3 * DAY * 1000 - HOUR * 1000
    _, again = restarted(Settings(_env_file=None), room, journal, clock)
    assert again.turn_clock.away_used[me]
    for bad, code in ((tokens[me], "away_used"), ("nobody", "forbidden")):
        with pytest.raises(RoomError) as refused:
            await late.go_away(room, bad, 1)
        assert refused.value.code == code
    with pytest.raises(RoomError) as refused:
        await late.go_away(room, tokens[1 - me], 7 * 24 + 1)
    assert refused.value.code == "malformed"
    _, rt_room, _, rt_tokens = await turn_based(settings(), clock, "realtime", None)
    with pytest.raises(RoomError) as refused:
        await late.go_away(rt_room, rt_tokens[0], 1)
    assert refused.value.code == "not_turn_based"


@pytest.mark.asyncio
async def test_a_turn_based_clock_is_saved_while_it_runs_so_a_crash_gives_back_little() -> None:
    clock = Clock()
    manager, room, journal, _ = await turn_based(settings(), clock)
    clock.now += 5 * HOUR
    await ClockKeeper(manager, "greedy").save_all(turn_based_only=True)  # as run() does
    clock.now += 5 * HOUR  # then the process dies: these five hours are not saved
    _, again = restarted(Settings(_env_file=None), room, journal, clock)
    assert left(again) == (3 * DAY - 5 * HOUR) * 1000

"""Every path out of a timed-out turn leaves someone able to move (issue 25, point 15):
the stand-in that finishes a timed-out turn keeps it through a reconnect, a `back` and a
restart, and a restored clock waits for its player. No sleeps: time moves when a test
moves it."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest
from test_turnclock import Clock, TalkJournal

from server.db.records import SeatRecord, UnfinishedRoom
from server.persist.recovery import rebuild
from server.rooms import Connection, RoomError, RoomManager, RoomOptions, seating, timeouts
from server.rooms.timeouts import ClockKeeper
from server.rooms.turnclock import ClockOption
from server.rules import RULES_VERSION, is_over


async def two_players(settings, clock: Clock):
    journal = TalkJournal()
    manager = RoomManager(settings, journal, clock=clock)
    room, host = await manager.create(RoomOptions(2, clock=ClockOption(10, 0)), "t")
    tokens = [(await seating.join(room, name, i))[1] for i, name in enumerate(["Ana", "Bo"])]
    for token in tokens:
        await room.attach(Connection(), token, None)
    await seating.start(room, host)
    return manager, room, journal, tokens


def restarted(settings, room, journal, clock: Clock):
    """The room as another process rebuilds it from what was journaled."""
    stored = UnfinishedRoom(
        code=room.code, status="playing", options=room.options.to_dict(), seed=room.seed,
        rules_version=RULES_VERSION, host_token_hash=room.host_token_hash,
        created_at=datetime.now(UTC), started_at=datetime.now(UTC),
        seats=tuple(SeatRecord(s.index, s.name or "", s.bot, s.token_hash) for s in room.seats),
        actions=tuple((i + 1, s, a) for i, (s, a) in enumerate(room.actions)),
        talk=tuple(journal.talk_items.values()),
    )
    manager = RoomManager(settings, journal, clock=clock)
    again = rebuild(manager, stored, base=room.v + 1)
    manager.restore(again)
    return manager, again


async def bot_step(room) -> None:
    """What the bots driver does for a seat a bot plays: one legal action."""
    seat = room.game.current
    level = room.seats[seat].played_by
    assert level is not None
    await room.act(seat, room.view(seat)["game"]["legal"][-1], room.v, bot=level)


async def timed_out(room, manager, clock: Clock) -> int:
    seat = room.game.current
    clock.now += 10.0
    await ClockKeeper(manager, "greedy").check()
    assert room.seats[seat].stand_in == "greedy" and timeouts.finishing(room, seat)
    return seat


@pytest.mark.asyncio
async def test_a_reconnect_does_not_stop_the_stand_in_finishing_a_timed_out_turn(settings):
    clock = Clock()
    manager, room, _, tokens = await two_players(settings, clock)
    seat = await timed_out(room, manager, clock)
    await room.attach(Connection(), tokens[seat], room.v)  # the player is back meanwhile
    assert room.seats[seat].played_by == "greedy"
    with pytest.raises(RoomError) as refused:
        await room.act(seat, room.view(seat)["game"]["legal"][-1], room.v)
    assert refused.value.code == "timed_out"
    while room.game.current == seat:
        await bot_step(room)
    assert room.seats[seat].stand_in is None  # the next turn is the player's own again


@pytest.mark.asyncio
async def test_a_restart_during_the_stand_in_keeps_it_finishing_the_turn(settings):
    clock = Clock()
    manager, room, journal, tokens = await two_players(settings, clock)
    seat = await timed_out(room, manager, clock)
    manager, again = restarted(settings, room, journal, Clock())
    assert again.seats[seat].played_by == "greedy" and timeouts.finishing(again, seat)
    await again.attach(Connection(), tokens[seat], None)
    while again.game.current == seat:
        await bot_step(again)
    assert again.seats[seat].stand_in is None


@pytest.mark.asyncio
async def test_a_restored_clock_waits_for_its_player_to_reconnect(settings):
    clock = Clock()
    manager, room, journal, tokens = await two_players(settings, clock)
    seat = room.game.current
    clock.now += 4.0
    async with room.lock:
        await timeouts.save(room)
    later = Clock()
    manager, again = restarted(settings, room, journal, later)
    later.now += 30.0  # the player's browser takes its time to come back
    assert again.turn_clock.deadline() is None and again.info()["clock"]["running"] is False
    await again.attach(Connection(), tokens[seat], None)
    assert again.turn_clock.deadline() == pytest.approx(later.now + 6.0)


@pytest.mark.asyncio
@pytest.mark.parametrize("seed", range(12))
async def test_timeouts_reconnects_backs_restarts_and_stand_ins_never_stall_a_game(settings, seed):
    """Random interleavings: after every step someone can move, the seat's player or the
    bot playing it; the game reaches its end."""
    rng = random.Random(seed)
    clock = Clock()
    manager, room, journal, tokens = await two_players(settings, clock)
    for _ in range(600):
        if is_over(room.game):
            return
        seat = room.game.current
        step = rng.choice(["move", "move", "move", "timeout", "reconnect", "back", "restart"])
        if step == "timeout":
            clock.now += 10.0
            await ClockKeeper(manager, "greedy").check()
        elif step == "reconnect":
            await room.attach(Connection(), tokens[rng.randrange(2)], room.v)
        elif step == "back":
            await timeouts.come_back(room, rng.randrange(2))
        elif step == "restart":
            clock = Clock()
            manager, room = restarted(settings, room, journal, clock)
            for token in tokens:
                await room.attach(Connection(), token, None)
        elif room.seats[seat].played_by is not None:
            await bot_step(room)
        else:
            await room.act(seat, rng.choice(room.view(seat)["game"]["legal"]), room.v)
        seat = room.game.current
        assert room.seats[seat].played_by is not None or not timeouts.finishing(room, seat), \
            f"nobody can move for seat {seat} after {step}"
    pytest.fail("the game did not end in 600 steps")

"""The hint's refusals that a live game rarely reaches (issue 27), on the room's injected
clock: no hint before the game starts or while a stand-in plays the seat (`no_hint`), at
most five a minute per seat (`hint_slow`), and a refused hint records nothing."""

from __future__ import annotations

from typing import Any

import pytest

from server.bots.hint_requests import RATE, WINDOW, Hints
from server.config import Settings
from server.rooms import Connection, RoomError, RoomManager, RoomOptions, seating
from tests.clocks import FakeClock
from tests.rooms.test_turnclock import TalkJournal


class InlinePool:
    """The bot pool's `call`, run in this process: the hint's own code, no workers (no
    deadline, nothing to stop it)."""

    async def call(self, fn: Any, *args: Any, key: str | None = None, priority: int = 0) -> Any:
        return fn(*args, None, None)


async def hinted_room(clock: FakeClock, start: bool = True):
    manager = RoomManager(Settings(_env_file=None), TalkJournal(), clock=clock)
    room, host = await manager.create(RoomOptions(2, hints=True), "t")
    tokens = [(await seating.join(room, name, i))[1] for i, name in enumerate(["Ana", "Bo"])]
    conns = [Connection() for _ in tokens]
    for conn, token in zip(conns, tokens, strict=True):
        await room.attach(conn, token, None)
    if start:
        await seating.start(room, host)
    return room, conns


def hints_for(clock: FakeClock) -> Hints:
    return Hints(InlinePool(), 0.01, 8, 2, clock)


def hint_items(room) -> list[dict]:
    return [i for i in room.talk.items if i.get("kind") == "hint"]


async def refused(hints: Hints, room, seat: int) -> str:
    with pytest.raises(RoomError) as caught:
        await hints.ask(room, seat)
    return caught.value.code


@pytest.mark.asyncio
async def test_five_hints_a_minute_then_hint_slow_until_the_minute_has_passed() -> None:
    clock = FakeClock()
    room, _ = await hinted_room(clock)
    hints = hints_for(clock)
    seat = room.game.current
    for _ in range(RATE):
        assert (await hints.ask(room, seat))["action"] in room.view(seat)["game"]["legal"]
        clock.advance(1)
    assert await refused(hints, room, seat) == "hint_slow"
    assert len(hint_items(room)) == RATE  # the refused one is not recorded
    clock.advance(WINDOW)
    await hints.ask(room, seat)
    assert len(hint_items(room)) == RATE + 1


@pytest.mark.asyncio
async def test_no_hint_before_the_start_nor_for_a_seat_a_stand_in_plays() -> None:
    clock = FakeClock()
    waiting, _ = await hinted_room(clock, start=False)
    assert await refused(hints_for(clock), waiting, 0) == "no_hint"
    room, conns = await hinted_room(clock)
    seat = room.game.current
    await room.detach(conns[seat])
    assert await seating.stand_in(room, seat, "greedy")
    assert await refused(hints_for(clock), room, seat) == "no_hint"
    assert hint_items(room) == [] and hint_items(waiting) == []

"""The talk log's budgets and the chat's write path, in the room: each channel its own
budget and timeouts none; chat saved outside the room lock (an action never waits behind
it); a message that cannot be saved is refused `unavailable`, kept nowhere and sent to
nobody. Time and the journal's write are held by the test (a 10 s turn, a stalled disk)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from test_turnclock import Clock, TalkJournal, clocked_room

from server.rooms import Connection, RoomError, chat
from server.rooms.chat import CHAT_MAX
from server.rooms.timeouts import ClockKeeper


def said(conn: Connection) -> list[str]:
    """The texts of the chat frames queued for `conn` so far."""
    texts = []
    for item in conn.outbox:
        frame = json.loads(item) if isinstance(item, str) else {}
        if frame.get("type") == "chat":
            texts += [m["text"] for m in frame["messages"]]
    return texts


async def spectator(room) -> Connection:
    conn = Connection(limit=10_000)
    await room.attach(conn, None, None)
    return conn


@pytest.mark.asyncio
async def test_spectators_fill_only_their_own_channel_and_timeouts_are_always_kept(
        make_settings) -> None:
    """Issue 25 point 7: spectators saying enough to fill the old shared log leave the
    players' channel open, and a clock timeout is still logged and journaled."""
    settings = make_settings(CHAT_RATE=10_000, CHAT_ADDRESS_RATE=10_000)
    clock = Clock()
    manager, room, journal, (ana, _) = await clocked_room(settings, clock)
    crowd = [await spectator(room) for _ in range(20)]
    refused = 0
    for i in range(2 * CHAT_MAX + 1):  # more than both channels together
        try:
            await chat.post(room, crowd[i % 20], f"spam {i}", None)
        except RoomError as e:
            assert e.code == "chat_full"
            refused += 1
    await chat.post(room, ana, "still here", None)  # the players' channel is open
    assert said(ana)[-1] == "still here"
    assert room.talk.said == {"players": 1, "spectators": CHAT_MAX}
    assert refused == CHAT_MAX + 1
    seat = room.game.current
    clock.now += 31  # the turn (10 s) and the bank (20 s) run out
    await ClockKeeper(manager, "greedy").check()
    assert room.seats[seat].stand_in == "greedy"
    timeout = room.talk.items[-1]
    assert (timeout["kind"], timeout["seat"]) == ("timeout", seat)
    assert journal.talk_items[timeout["n"]] == timeout


class StalledTalk(TalkJournal):
    """A journal whose talk writes wait until the test lets them through (or fail)."""

    def __init__(self) -> None:
        super().__init__()
        self.go = asyncio.Event()
        self.fail = False
        self.waiting = 0

    async def talk(self, room: Any, item: dict[str, Any]) -> None:
        if item.get("kind") != "chat":
            return await super().talk(room, item)
        self.waiting += 1
        await self.go.wait()
        if self.fail:
            raise OSError(28, "No space left on device")
        return await super().talk(room, item)


async def stalled_room(settings):
    clock = Clock()
    _, room, _, conns = await clocked_room(settings, clock, turn=600, bank=0)
    journal = StalledTalk()
    room.journal = journal
    return room, journal, conns


@pytest.mark.asyncio
async def test_an_action_does_not_wait_for_chat_being_saved(settings) -> None:
    """Issue 25 point 8: while a message waits for its write, the player to act acts; the
    message is sent (and acknowledged) only once it is durable."""
    room, journal, conns = await stalled_room(settings)
    seat = room.game.current
    other = conns[1 - seat]
    posting = asyncio.create_task(chat.post(room, other, "thinking...", None))
    while not journal.waiting:
        await asyncio.sleep(0)
    v = room.v
    action = room.view(seat)["game"]["legal"][-1]
    assert await asyncio.wait_for(room.act(seat, action, v), 5) == v + 1
    assert not posting.done() and "thinking..." not in said(conns[seat])
    journal.go.set()
    await asyncio.wait_for(posting, 5)
    assert said(conns[seat])[-1] == "thinking..."
    assert [m["text"] for m in room.talk.items if m["kind"] == "chat"] == ["thinking..."]


@pytest.mark.asyncio
async def test_a_message_that_cannot_be_saved_is_refused_and_kept_nowhere(settings) -> None:
    """Issue 25 point 17: a full disk refuses the message as it refuses an action:
    `unavailable`, not in the log, sent to nobody; its budget is given back."""
    room, journal, (ana, bo) = await stalled_room(settings)
    journal.fail = True
    journal.go.set()
    with pytest.raises(RoomError) as refused:
        await chat.post(room, ana, "lost?", None)
    assert refused.value.code == "unavailable"
    assert room.talk.items == [] and room.talk.said["players"] == 0
    assert "lost?" not in said(ana) + said(bo)
    journal.fail = False
    await chat.post(room, ana, "saved", None)
    assert said(bo)[-1] == "saved" and [m["text"] for m in room.talk.items] == ["saved"]

"""Rooms without sockets: codes, versions, the journal and listener hooks, expiry."""

from __future__ import annotations

import json

import jsonpatch
import pytest

from server.rooms import Connection, RoomError, RoomManager, RoomOptions, seating
from server.rooms.codes import ALPHABET, display, new_code, normalize
from server.rooms.history import History


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Recorder:
    def __init__(self, fail_at: int | None = None) -> None:
        self.calls: list[tuple] = []
        self.fail_at = fail_at
        self.watch: Connection | None = None

    async def room_created(self, room):
        self.calls.append(("created", room.code))

    async def seats_changed(self, room):
        self.calls.append(("seats", [s.name for s in room.seats]))

    async def started(self, room):
        self.calls.append(("started", room.code))

    async def accepted(self, room, seq, action, seat):
        # Nothing has been sent for this action yet.
        queued = [] if self.watch is None else drain(self.watch)
        self.calls.append(("record", seq, action["type"], seat, queued))
        if seq == self.fail_at:
            raise OSError("disk full")

    async def finished(self, room):
        self.calls.append(("finished", room.code))

    async def abandoned(self, room):
        self.calls.append(("abandoned", room.code))


def drain(conn: Connection) -> list[dict]:
    frames = []
    while not conn.outbox.empty():
        item = conn.outbox.popleft()
        if isinstance(item, str):
            frames.append(json.loads(item))
    return frames


def test_codes():
    code = new_code()
    assert len(code) == 8 and set(code) <= set(ALPHABET)
    assert normalize(display(code).lower()) == code
    assert normalize("K7QX-PM2O") is None and normalize("K7QX") is None and normalize("") is None


def test_history_ring():
    history = History(3)
    from server.rooms.history import Entry

    for v in range(1, 6):
        history.append(Entry(v, [], {}, []))
    assert [e.v for e in history.since(3, 5)] == [4, 5]
    assert history.since(5, 5) == []
    assert history.since(1, 5) is None


def test_history_keeps_no_more_text_than_its_byte_budget():
    """A gap whose patches would outweigh a snapshot is answered with the snapshot: older
    entries go once the kept text passes the budget, and an entry over the budget by itself
    (a game's start: each viewer's whole view) is not kept at all."""
    from server.rooms.history import Entry

    def entry(v: int, chars: int) -> Entry:
        return Entry(v, [{"op": "add", "path": "/room/x", "value": "x" * chars}], {}, [])

    small = entry(0, 1000).size
    history = History(64, max_bytes=3 * small)
    for v in range(1, 6):
        history.append(entry(v, 1000))
    assert [e.v for e in history.since(2, 5)] == [3, 4, 5]
    assert history.since(1, 5) is None  # version 2 was dropped for the budget
    assert history.bytes == 3 * small
    history.append(entry(6, 4000))
    assert history.since(5, 6) is None and history.bytes == 0  # resumed with a snapshot
    history.append(entry(7, 1000))
    assert [e.v for e in history.since(6, 7)] == [7]



def test_recent_events_keep_the_last_ones_as_the_entries_text():
    """The last `size` events, oldest first with their versions, however the versions
    that carried them split them; kept as the very tail strings of the history's entries."""
    from server.rooms.history import Entry, RecentEvents

    recent = RecentEvents(5)
    entries = []
    for v, count in ((1, 2), (2, 0), (3, 3), (4, 1), (5, 2)):
        events = [{"type": "e", "n": f"{v}.{i}"} for i in range(count)]
        entries.append(Entry(v, [], {}, events))
        recent.add(entries[-1], count)
    assert [(e["v"], e["event"]["n"]) for e in recent.listed()] == [
        (3, "3.1"), (3, "3.2"), (4, "4.0"), (5, "5.0"), (5, "5.1")]
    assert [e["event"]["n"] for e in recent.listed(upto=4)] == ["3.1", "3.2", "4.0"]
    assert [v for v, _, _ in recent.tails] == [3, 4, 5]  # version 1 went, 2 had none
    assert all(tail is entries[v - 1].tail for v, tail, _ in recent.tails)

async def seated_room(manager, players=2):
    room, host = await manager.create(RoomOptions(players), "1.2.3.4")
    tokens = [(await seating.join(room, f"P{s}", None))[1] for s in range(players)]
    return room, tokens, host


@pytest.mark.asyncio
async def test_journal_sees_actions_before_anyone_and_rollback_on_failure(settings):
    journal = Recorder(fail_at=2)
    manager = RoomManager(settings, journal)
    room, _, host = await seated_room(manager)
    journal.watch = conn = Connection()
    await room.attach(conn, None, None)
    await seating.start(room, host)
    drain(conn)
    seat = room.game.current
    action = room.view(seat)["game"]["legal"][0]
    assert await room.act(seat, action, room.v) == room.v
    assert journal.calls[-1] == ("record", 1, "place", seat, [])  # queued nothing yet
    patch = drain(conn)
    assert [f["type"] for f in patch] == ["patch"]
    before_v, before = room.v, json.dumps(room.view(None))
    seat = room.game.current
    with pytest.raises(RoomError) as refused:
        await room.act(seat, room.view(seat)["game"]["legal"][0], room.v)
    assert refused.value.code == "unavailable"
    assert room.v == before_v and json.dumps(room.view(None)) == before
    assert room.game.version == 1 and drain(conn) == []
    assert [c[0] for c in journal.calls] == [
        "created", "seats", "seats", "started", "record", "record"
    ]
    assert journal.calls[2] == ("seats", ["P0", "P1"])
    # The refused action left no trace: the next one takes its sequence number.
    journal.fail_at = None
    action = room.view(seat)["game"]["legal"][0]
    assert await room.act(seat, action, room.v) == room.v
    assert journal.calls[-1][:2] == ("record", 2) and room.game.version == 2
    assert room.actions[-1] == (seat, action) and len(room.actions) == 2


@pytest.mark.asyncio
async def test_listeners_hear_the_start_and_every_action(settings):
    heard = []

    async def listener(room, events):
        heard.append([e["type"] for e in events])

    async def broken(room, events):
        raise RuntimeError("a bot crashed")

    manager = RoomManager(settings, listeners=[broken, listener])
    room, _, host = await seated_room(manager)
    await seating.start(room, host)
    seat = room.game.current
    await room.act(seat, room.view(seat)["game"]["legal"][0], room.v)
    assert heard == [[], ["placed"]]


@pytest.mark.asyncio
async def test_each_viewer_kind_patches_to_its_own_view(settings):
    manager = RoomManager(settings)
    room, tokens, host = await seated_room(manager, 3)
    conns = {s: Connection() for s in (None, 0, 1, 2)}
    for seat, conn in conns.items():
        await room.attach(conn, None if seat is None else tokens[seat], None)
    views = {}
    await seating.start(room, host)
    for _ in range(10):
        seat = room.game.current
        await room.act(seat, room.view(seat)["game"]["legal"][-1], room.v)
    for seat, conn in conns.items():
        for frame in drain(conn):
            if frame["type"] == "snapshot":
                views[seat] = frame["view"]
            else:
                views[seat] = jsonpatch.apply_patch(views[seat], frame["ops"])
        expected = json.dumps(room.view(seat), sort_keys=True)
        assert json.dumps(views[seat], sort_keys=True) == expected


@pytest.mark.asyncio
async def test_spectators_joining_at_one_version_share_a_snapshot_kept_no_longer(settings):
    manager = RoomManager(settings)
    room, _, host = await seated_room(manager)
    await seating.start(room, host)
    first = room.snapshot(None)
    assert room.snapshot(None) is first  # a crowd joining at this version: one text
    seat = room.game.current
    await room.act(seat, room.view(seat)["game"]["legal"][0], room.v)
    assert room._spectator_snapshot is None  # the next version lets it go (~3 KiB)
    later = json.loads(room.snapshot(None))
    assert later["v"] == room.v and later["view"] == json.loads(json.dumps(room.view(None)))


@pytest.mark.asyncio
async def test_expiry(make_settings):
    clock = Clock()
    settings = make_settings(ROOM_IDLE_TTL=100, FINISHED_ROOM_TTL=10)
    journal = Recorder()
    manager = RoomManager(settings, journal, clock=clock)
    waiting, _ = await manager.create(RoomOptions(2), "a")
    playing, _, playing_host = await seated_room(manager)
    await seating.start(playing, playing_host)
    watcher = Connection()
    await playing.attach(watcher, None, None)
    finished, _, finished_host = await seated_room(manager)
    await seating.start(finished, finished_host)
    while finished.game.phase != "over":
        seat = finished.game.current
        await finished.act(seat, finished.view(seat)["game"]["legal"][-1], finished.v)
    assert finished.status == "finished"
    clock.now += 10
    assert await manager.sweep() == [finished.code]
    clock.now += 90
    assert await manager.sweep() == [waiting.code]  # the playing room has a viewer
    assert await manager.sweep() == []
    await playing.detach(watcher)
    clock.now += 100
    assert await manager.sweep() == [playing.code] and manager.rooms == {}
    # Only unfinished rooms are journaled as abandoned: the finished one is in the record.
    assert [c[1] for c in journal.calls if c[0] == "abandoned"] == [waiting.code, playing.code]

"""Whole seeded games through a room: every viewer's patches rebuild exactly its own view.

Each game is played by random legal actions, with undos, players who drop and come back
(with a resume version or without), spectators coming and going, a seat kicked and taken
again mid-game, and a turn clock in some. After every step each viewer's frames are
checked against the room's full view of that viewer: a snapshot is that view, and a patch
is exactly the structural diff (server.rooms.diff) from its view at the version before to
its view at that version, so applying it (jsonpatch) gives the new view; and every view
equals one made afresh from the game, with nothing reused from before. The same seed and
the same steps give the same frames, byte for byte.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

import jsonpatch
import pytest

from server.rooms import Connection, NullJournal, RoomOptions, seating
from server.rooms.diff import diff
from server.rooms.room import Room
from server.rooms.seat import hash_token, new_token
from server.rooms.turnclock import ClockOption
from server.rules import is_over, view


class Clock:
    def __init__(self) -> None:
        self.now = 5000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Viewer:
    seat: int | None
    conn: Connection = field(default_factory=Connection)
    view: Any = None
    v: int = -1
    texts: list[str] = field(default_factory=list)


def text(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


class Table:
    """A room, its viewers, and every viewer kind's full view at every version."""

    def __init__(self, players: int, seed: int, clock: bool) -> None:
        self.rng = random.Random(seed)
        self.clock = Clock()
        self.host = new_token()
        option = ClockOption(60, 300) if clock else None
        self.room = Room("PATCHTST", RoomOptions(players, clock=option), journal=NullJournal(),
                         clock=self.clock, seed=self.rng.getrandbits(64),
                         host_token_hash=hash_token(self.host), resume_buffer=8)
        self.tokens: list[str] = []
        self.viewers: list[Viewer] = []
        self.views: dict[int, dict[int | None, dict[str, Any]]] = {}
        self.kinds = (None, *range(players))

    def note_views(self) -> None:
        """Keep every viewer kind's full view at the room's version (call after each change:
        one room call commits at most one version)."""
        assert self.room.v <= max(self.views, default=self.room.v) + 1
        # What viewers have is current: the room info, and the game view made afresh (a
        # clone of the game has none of the view parts kept from the last version).
        assert self.room.view(None)["room"] == self.room.info()
        if self.room.game is not None:
            fresh = self.room.game.clone()
            for seat in self.kinds:
                assert text(self.room.view(seat)["game"]) == text(view(fresh, seat))
        self.views[self.room.v] = {
            s: json.loads(json.dumps(self.room.view(s))) for s in self.kinds}

    async def attach(self, seat: int | None, resume: int | None = None) -> Viewer:
        viewer = Viewer(seat)
        if resume is not None:
            viewer.v, viewer.view = resume, self.views[resume][seat]
        token = None if seat is None else self.tokens[seat]
        await self.room.attach(viewer.conn, token, resume)
        self.viewers.append(viewer)
        self.note_views()
        return viewer

    async def detach(self, viewer: Viewer) -> None:
        await self.room.detach(viewer.conn)
        self.viewers.remove(viewer)
        self.note_views()

    def check(self) -> None:
        """Every viewer's new frames against the full views (see the module docstring)."""
        for viewer in self.viewers:
            while viewer.conn.outbox:
                item = viewer.conn.outbox.pop(0)
                assert isinstance(item, str)
                viewer.texts.append(item)
                frame = json.loads(item)
                if frame["type"] == "snapshot":
                    assert text(frame["view"]) == text(self.views[frame["v"]][viewer.seat])
                    viewer.view, viewer.v = frame["view"], frame["v"]
                elif frame["type"] == "patch":
                    assert frame["v"] == viewer.v + 1
                    before = self.views[viewer.v][viewer.seat]
                    after = self.views[frame["v"]][viewer.seat]
                    assert frame["ops"] == diff(before, after)
                    assert text(viewer.view) == text(before)
                    viewer.view = jsonpatch.apply_patch(viewer.view, frame["ops"])
                    viewer.v = frame["v"]
                    assert text(viewer.view) == text(after)
            assert viewer.v == self.room.v

    async def step(self) -> None:
        """One random step: mostly an action, sometimes an undo or a coming and going."""
        room, rng = self.room, self.rng
        assert room.game is not None
        seat, roll = room.game.current, rng.random()
        players = [v for v in self.viewers if v.seat is not None]
        if roll < 0.04 and room.view(seat)["game"]["can_undo"]:
            await room.act(seat, {"type": "undo"}, room.v)
            self.note_views()
        elif roll < 0.07 and players:  # a player drops, then comes back
            gone = rng.choice(players)
            await self.detach(gone)
            self.check()
            resume = rng.choice((None, gone.v, max(gone.v - 3, 1)))
            await self.attach(gone.seat, resume)
        elif roll < 0.10:
            watching = [v for v in self.viewers if v.seat is None]
            if watching and rng.random() < 0.5:
                await self.detach(rng.choice(watching))
            else:
                await self.attach(None)
        elif roll < 0.11 and seat != 0 and room.seats[0].conn is not None:
            await seating.kick(room, self.host, 0)  # the host frees seat 0; a new player sits
            self.viewers = [v for v in self.viewers if v.seat != 0]
            self.note_views()
            self.check()
            index, self.tokens[0] = await seating.join(room, "Newcomer", 0)
            assert index == 0
            self.note_views()
            await self.attach(0)
        else:
            await room.act(seat, rng.choice(room.view(seat)["game"]["legal"]), room.v)
            self.note_views()
        self.clock.now += 0.75
        self.check()

    async def play(self) -> None:
        self.note_views()
        for s in range(len(self.kinds) - 1):
            self.tokens.append((await seating.join(self.room, f"P{s}", None))[1])
            self.note_views()
        for seat in self.kinds:
            await self.attach(seat)
        self.check()
        await seating.start(self.room, self.host)
        self.note_views()
        self.check()
        assert self.room.game is not None
        while not is_over(self.room.game):
            await self.step()
        await self.attach(None)  # a late spectator sees the result
        self.check()


@pytest.mark.asyncio
@pytest.mark.parametrize(("players", "seed", "clock"), [
    (2, 1, False), (2, 2, True), (3, 3, False), (3, 4, True), (4, 5, False), (4, 6, True),
])
async def test_every_viewers_patches_rebuild_its_own_view_over_a_whole_game(
    players: int, seed: int, clock: bool
) -> None:
    table = Table(players, seed, clock)
    await table.play()
    assert table.room.status == "finished"
    assert {v.seat for v in table.viewers} >= set(table.kinds)


@pytest.mark.asyncio
async def test_the_same_seed_and_steps_give_the_same_frames_byte_for_byte() -> None:
    tables = [Table(3, 7, clock=True), Table(3, 7, clock=True)]
    for table in tables:
        await table.play()
    first, second = ([v.texts for v in t.viewers] for t in tables)
    assert first == second and sum(map(len, first)) > 100

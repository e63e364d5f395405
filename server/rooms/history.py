"""The resume ring buffer: the last few versions' patches, to replay to a returning client.

It keeps the last RESUME_BUFFER versions, but no more than MAX_BYTES of their text: a
room's patches average ~0.9 KB over a four-player game (every viewer kind's own ops
included) and the game's start gives each viewer kind its whole view (~13 KB), so 64
versions would be ~55 KB per room, a third of what a live room may cost in all. Past a
few KB, a snapshot (~3 KB) is no bigger than the patches it replaces, so a client that
missed more gets the snapshot, as the protocol says for any gap the buffer no longer holds.

`RecentEvents`, a room's last events for a viewer arriving mid-game, keeps the same
entries' text rather than event dicts of its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

import orjson

from server.jsontext import dumps

from . import outgoing
from .diff import Op
from .events import Event


class Logged(TypedDict):
    """An event in a room's log, with the version that carried it."""

    v: int
    event: Event


class Entry:
    """One version's patch, kept as JSON text: the ops every viewer gets, each viewer kind's
    own ops (None: spectators), the events. Text is several times smaller than the op dicts
    and the view parts they hold on to, and it is what gets sent anyway."""

    __slots__ = ("v", "shared", "own", "tail", "size")

    def __init__(self, v: int, shared: list[Op], by_seat: dict[int | None, list[Op]],
                 events: Sequence[Mapping[str, Any]]) -> None:
        self.v = v
        self.shared = dumps(shared)[1:-1]  # the ops without their brackets
        self.own = {seat: dumps(ops)[1:-1] for seat, ops in by_seat.items() if ops}
        self.tail = outgoing.patch_tail(dumps(events))
        self.size = len(self.shared) + sum(map(len, self.own.values())) + len(self.tail)

    @property
    def events(self) -> list[Event]:
        return events_in(self.tail)

    def text(self, seat: int | None) -> str:
        """The patch frame for a viewer in `seat` (None: a spectator)."""
        own = self.own.get(seat)
        ops = self.shared
        if own:
            ops = f"{ops},{own}" if ops else own
        return outgoing.patch_head(self.v) + ops + self.tail


_EVENTS_AT = len(outgoing.patch_tail("")) - 1  # where the events' text starts in a tail


def events_in(tail: str) -> list[Event]:
    """The events of an entry's tail."""
    events: list[Event] = orjson.loads(tail[_EVENTS_AT:-1])
    return events


class FrameTexts:
    """An entry's patch frames for one fan-out, each built at most once: viewers with no ops
    of their own share one text."""

    __slots__ = ("entry", "_texts")

    def __init__(self, entry: Entry) -> None:
        self.entry = entry
        self._texts: dict[object, str] = {}

    def text(self, seat: int | None) -> str:
        kind: object = seat if seat in self.entry.own else "shared"
        text = self._texts.get(kind)
        if text is None:
            text = self._texts[kind] = self.entry.text(seat)
        return text


MAX_BYTES = 8 * 1024  # of entry text a room keeps for resuming


class History:
    def __init__(self, size: int, max_bytes: int = MAX_BYTES) -> None:
        # A list, not a deque: it holds a few entries (MAX_BYTES of text), so dropping the
        # oldest moves a few pointers, and an empty list costs 56 bytes where a deque costs
        # 760 (one per room; so RecentEvents').
        self.entries: list[Entry] = []
        self.max_versions = max(size, 0)
        self.max_bytes = max_bytes
        self.bytes = 0

    def append(self, entry: Entry) -> None:
        self.entries.append(entry)
        self.bytes += entry.size
        entries = self.entries
        dropped = 0
        while dropped < len(entries) and (len(entries) - dropped > self.max_versions
                                          or self.bytes > self.max_bytes):
            self.bytes -= entries[dropped].size
            dropped += 1
        if dropped:
            del entries[:dropped]

    def since(self, v: int, current: int) -> list[Entry] | None:
        """The entries after version `v` up to `current`, or None if some were dropped."""
        if v == current:
            return []
        if not self.entries or self.entries[0].v > v + 1:
            return None
        first = v + 1 - self.entries[0].v
        return self.entries[first:]


class RecentEvents:
    """The last `size` events every viewer saw, each with the version that carried it. Kept
    as the entries' tails (the text the history holds anyway, the same string objects)
    rather than as event dicts: read only when a viewer arrives mid-game."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.tails: list[tuple[int, str, int]] = []  # (v, tail, events in it)
        self.count = 0

    def add(self, entry: Entry, count: int) -> None:
        """`entry` carried `count` events."""
        if not count:
            return
        tails = self.tails
        tails.append((entry.v, entry.tail, count))
        self.count += count
        dropped = 0
        while dropped < len(tails) and self.count - tails[dropped][2] >= self.size:
            self.count -= tails[dropped][2]
            dropped += 1
        if dropped:
            del tails[:dropped]

    def listed(self, upto: int | None = None) -> list[Logged]:
        """Oldest first; only up to version `upto` if given."""
        recent = [Logged(v=v, event=event) for v, tail, _ in self.tails
                  for event in events_in(tail)][-self.size:]
        return [item for item in recent if upto is None or item["v"] <= upto]

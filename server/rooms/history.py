"""The resume ring buffer: the last few versions' patches, to replay to a returning client."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

from . import outgoing
from .diff import Op
from .jsontext import dumps


@dataclass(slots=True)
class Entry:
    v: int
    shared: list[Op]  # ops every viewer gets (room info, public game view)
    by_seat: dict[int | None, list[Op]]  # ops for one viewer kind only (None: spectators)
    events: list[dict[str, Any]]


class FrameTexts:
    """An entry's patch frames as JSON text, each built at most once. Viewers with no ops of
    their own share one text; the shared ops and the events are encoded once for all."""

    __slots__ = ("entry", "_head", "_shared", "_tail", "_texts")

    def __init__(self, entry: Entry) -> None:
        self.entry = entry
        self._texts: dict[object, str] = {}
        self._head = self._shared = self._tail = ""

    def text(self, seat: int | None) -> str:
        entry = self.entry
        own = entry.by_seat.get(seat)
        kind: object = seat if own else "shared"
        text = self._texts.get(kind)
        if text is not None:
            return text
        if not self._head:
            self._head = outgoing.patch_head(entry.v)
            self._shared = dumps(entry.shared)[1:-1]
            self._tail = outgoing.patch_tail(dumps(entry.events))
        ops = self._shared
        if own:
            own_text = dumps(own)[1:-1]
            ops = f"{ops},{own_text}" if ops else own_text
        text = self._texts[kind] = self._head + ops + self._tail
        return text


class History:
    def __init__(self, size: int) -> None:
        self.entries: deque[Entry] = deque(maxlen=max(size, 0))

    def append(self, entry: Entry) -> None:
        self.entries.append(entry)

    def since(self, v: int, current: int) -> list[Entry] | None:
        """The entries after version `v` up to `current`, or None if some were dropped."""
        if v == current:
            return []
        if not self.entries or self.entries[0].v > v + 1:
            return None
        first = v + 1 - self.entries[0].v
        return list(self.entries)[first:]

"""The resume ring buffer: the last few versions' patches, to replay to a returning client."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

from .diff import Op


@dataclass(slots=True)
class Entry:
    v: int
    shared: list[Op]  # ops every viewer gets (room info, public game view)
    by_seat: dict[int | None, list[Op]]  # ops for one viewer kind only (None: spectators)
    events: list[dict[str, Any]]

    def frame(self, seat: int | None) -> dict[str, Any]:
        own = self.by_seat.get(seat)
        ops = self.shared + own if own else self.shared
        return {"type": "patch", "v": self.v, "ops": ops, "events": self.events}


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

"""One viewer's socket as the room sees it: a seat (or None) and an outbox of text frames.

The room only queues frames; the wire layer drains the outbox. A slow reader therefore
never holds up a room, and frames reach each socket in the order the room made them.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from .jsontext import dumps
from .stages import Stages

OUTBOX_LIMIT = 1000  # frames waiting for a socket that does not read (WS_OUTBOX)


@dataclass(frozen=True, slots=True)
class Close:
    code: int
    reason: str


class Connection:
    def __init__(self, limit: int = OUTBOX_LIMIT) -> None:
        self.seat: int | None = None
        self.attached = False
        self.closing = False
        self.limit = limit
        self.outbox: asyncio.Queue[str | Close | Stages] = asyncio.Queue()

    def send(self, text: str) -> None:
        if self.closing:
            return
        if self.outbox.qsize() >= self.limit:
            self.lagging()
            return
        self.outbox.put_nowait(text)

    def mark(self, stages: Stages) -> bool:
        """Queue a timing mark behind the frames queued so far (the writer tells `stages`
        when it gets there); False if this socket is closing."""
        if self.closing:
            return False
        self.outbox.put_nowait(stages)
        return True

    def lagging(self) -> None:
        """The reader fell `limit` frames behind: what is queued is dropped (it will need a
        snapshot anyway) so that bye "lagging" is the very next frame it gets."""
        while not self.outbox.empty():
            self.outbox.get_nowait()
        self.close("lagging", 1008)

    def send_json(self, frame: dict[str, Any]) -> None:
        self.send(dumps(frame))

    def close(self, reason: str, code: int = 1000) -> None:
        """Say bye with a reason, then close; later frames are dropped."""
        if self.closing:
            return
        self.outbox.put_nowait(dumps({"type": "bye", "reason": reason}))
        self.outbox.put_nowait(Close(code, reason))
        self.closing = True

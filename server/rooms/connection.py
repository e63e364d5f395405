"""One viewer's socket as the room sees it: a seat (or None) and an outbox of text frames.

The room only queues frames; the wire layer drains the outbox. A slow reader therefore
never holds up a room, and frames reach each socket in the order the room made them.

The wire layer may install `wakeup`, called each time a frame is queued: it writes the
frame out at once when the socket can take it (no task switch per frame), and leaves it
queued for its writer task when the socket is busy. An item stays in the outbox until it
has been written, so an empty outbox means everything went out. Between `hold` and
`release` frames only queue, and then leave together (an action's patch and its ack: one
write to the socket instead of two). It may also install `write`, which writes one text
frame at once if it can (True), for a frame with nothing queued ahead of it: the common
case, then, costs no trip through the outbox (a room's fan-out does it for every viewer).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from server.jsontext import dumps

from . import outgoing
from .stages import Stages

OUTBOX_LIMIT = 1000  # frames waiting for a socket that does not read (WS_OUTBOX)


@dataclass(frozen=True, slots=True)
class Close:
    code: int
    reason: str


Item = str | Close | Stages


class Outbox(list[Item]):
    """A FIFO of the items not yet written: the room appends, the writer (ws/writer.py)
    takes from the front. A list, not a deque: it is nearly always empty or one frame long,
    and an empty list costs 56 bytes where a deque costs 760."""

    def empty(self) -> bool:
        return not self

    def popleft(self) -> Item:
        return self.pop(0)


class Connection:
    __slots__ = ("seat", "watcher", "attached", "closing", "limit", "outbox", "wakeup", "write",
                 "held", "__weakref__")

    def __init__(self, limit: int = OUTBOX_LIMIT) -> None:
        self.seat: int | None = None
        self.watcher = 0  # a spectator's number at its table (chat.TalkLog.identify); 0: none
        self.attached = False
        self.closing = False
        self.limit = limit
        self.outbox = Outbox()
        self.wakeup: Callable[[], None] | None = None  # the wire's writer (see above)
        self.write: Callable[[str], bool] | None = None  # its shortcut (see above)
        self.held = False

    def _put(self, item: Item) -> None:
        self.outbox.append(item)
        if self.wakeup is not None and not self.held:
            self.wakeup()

    def hold(self) -> None:
        """Queue frames without writing them until `release`."""
        self.held = True

    def release(self) -> None:
        self.held = False
        if self.outbox and self.wakeup is not None:
            self.wakeup()

    def send(self, text: str) -> None:
        if self.closing:
            return
        if not self.outbox and not self.held and self.write is not None and self.write(text):
            return
        if len(self.outbox) >= self.limit:
            self.lagging()
            return
        self._put(text)

    def mark(self, stages: Stages) -> bool:
        """Queue a timing mark behind the frames queued so far (the writer tells `stages`
        when it gets there); False if this socket is closing."""
        if self.closing:
            return False
        self._put(stages)
        return True

    def lagging(self) -> None:
        """The reader fell `limit` frames behind: what is queued is dropped (it will need a
        snapshot anyway) so that bye "lagging" is the very next frame it gets. (The frame
        being written, if any, stays first: the writer removes it once it is out.)"""
        head = self.outbox[0] if self.outbox and self.wakeup is not None else None
        self.outbox.clear()
        if head is not None:
            self.outbox.append(head)
        self.close("lagging", 1008)

    def send_json(self, frame: dict[str, Any]) -> None:
        self.send(dumps(frame))

    def close(self, reason: str, code: int = 1000) -> None:
        """Say bye with a reason, then close; later frames are dropped."""
        if self.closing:
            return
        self.closing = True
        self.outbox.append(dumps(outgoing.bye(reason)))
        self._put(Close(code, reason))

"""Table talk: chat messages, quick reactions, and the room's talk log. No rules here.

Two channels: a player's message goes to "players" (everyone at the table sees it); a
spectator's goes to "spectators", which players do not see while the game is on (no
kibitzing) and everyone sees once it is over. Messages are not versions: they never
change a view's game part and never make an act stale. They travel in `chat` frames.

The talk log keeps, in order, every message and every clock timeout of the room (`n`
counts them from 1): it is journaled item by item and stored with the finished game, so
the replay shows the same talk. Mutes are per connection and only filter what that
connection is sent.
"""

from __future__ import annotations

import unicodedata
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from server.jsontext import dumps

from . import outgoing
from .connection import Connection
from .errors import RoomError

if TYPE_CHECKING:
    from .room import Room

TEXT_MAX = 200  # characters after trimming
RECENT = 50  # messages sent to a viewer who arrives or comes back
LOG_MAX = 2000  # talk items a room keeps (and stores with its game)
REACTIONS = ("thumbs", "sweat", "coffee", "gg", "wait")
PLAYERS, SPECTATORS = "players", "spectators"
# Format characters allowed in a message: joiners inside emoji and scripts. Every other
# control or format character (bidi overrides, zero-width spaces, BOM) is refused.
ALLOWED_FORMAT = {"\u200c", "\u200d"}


def clean_text(text: str) -> str:
    """A message as stored: NFC, line breaks and tabs as spaces, trimmed, 1..TEXT_MAX
    characters, no control characters; else RoomError chat_invalid."""
    text = unicodedata.normalize("NFC", text)
    text = "".join(" " if c in "\r\n\t" else c for c in text).strip()
    if not text:
        raise RoomError("chat_invalid", "a message cannot be empty", 422)
    if len(text) > TEXT_MAX:
        raise RoomError("chat_invalid", f"a message has at most {TEXT_MAX} characters", 422)
    for c in text:
        kind = unicodedata.category(c)
        if kind == "Cc" or kind in ("Cs", "Co", "Cn") or (kind == "Cf" and c not in ALLOWED_FORMAT):
            raise RoomError("chat_invalid", "a message cannot contain control characters", 422)
    return text


@dataclass(slots=True)
class TalkLog:
    items: list[dict[str, Any]] = field(default_factory=list)  # chat and timeouts, in order
    n: int = 0  # the last item's number
    _watchers: weakref.WeakKeyDictionary[Connection, int] = field(
        default_factory=weakref.WeakKeyDictionary
    )
    _mutes: weakref.WeakKeyDictionary[Connection, set[str]] = field(
        default_factory=weakref.WeakKeyDictionary
    )
    _watcher_count: int = 0

    def add(self, item: dict[str, Any]) -> dict[str, Any]:
        if len(self.items) >= LOG_MAX:
            raise RoomError("chat_full", "this table has said enough for one game", 409)
        self.n += 1
        item = {"n": self.n, **item}
        self.items.append(item)
        return item

    def load(self, items: list[dict[str, Any]]) -> None:
        self.items = sorted(items, key=lambda i: i["n"])
        self.n = max((i["n"] for i in self.items), default=0)

    def watcher(self, conn: Connection) -> int:
        """A spectator's number at this table ("Spectator 3"), fixed per connection."""
        number = self._watchers.get(conn)
        if number is None:
            self._watcher_count += 1
            number = self._watchers[conn] = self._watcher_count
        return number

    def mute(self, conn: Connection, author: str, on: bool) -> None:
        mutes = self._mutes.setdefault(conn, set())
        if on:
            mutes.add(author)
        else:
            mutes.discard(author)

    def muted(self, conn: Connection) -> set[str]:
        return self._mutes.get(conn, set())


def author_of(room: Room, conn: Connection) -> str:
    return f"p{conn.seat}" if conn.seat is not None else f"w{room.talk.watcher(conn)}"


def visible(room: Room, conn: Connection, message: dict[str, Any]) -> bool:
    """Whether `conn` is sent `message` (a chat item): its channel, and its own mutes."""
    if message.get("kind") != "chat" or message["author"] in room.talk.muted(conn):
        return False
    if message["channel"] == SPECTATORS and conn.seat is not None:
        return room.status not in ("waiting", "playing")
    return True


def public(message: dict[str, Any]) -> dict[str, Any]:
    """A chat item as clients get it."""
    return {k: v for k, v in message.items() if k != "kind"}


def send_recent(room: Room, conn: Connection) -> None:
    """Send `conn` the last RECENT messages it may see (for a viewer who arrives or comes
    back; the client replaces its list). Nothing when there is nothing to see."""
    shown = [public(m) for m in room.talk.items if visible(room, conn, m)][-RECENT:]
    if shown:
        conn.send(dumps(outgoing.chat(True, shown)))


async def post(room: Room, conn: Connection, text: str | None, reaction: str | None) -> None:
    """Say something at the table: journal it, then send it to whoever may see it."""
    if (text is None) == (reaction is None):
        raise RoomError("malformed", "a chat frame has either text or reaction", 422)
    if reaction is not None and reaction not in REACTIONS:
        raise RoomError("malformed", f"reaction must be one of {', '.join(REACTIONS)}", 422)
    said = None if text is None else clean_text(text)
    async with room.lock:
        room.check_open()
        if not conn.attached:
            raise RoomError("malformed", "send hello first", 422)
        seat = conn.seat
        message = room.talk.add({
            "kind": "chat",
            "channel": PLAYERS if seat is not None else SPECTATORS,
            "author": author_of(room, conn),
            "seat": seat,
            "name": None if seat is None else room.seats[seat].name,
            "text": said,
            "reaction": reaction,
            "after": len(room.actions),
            "at": round(room.clock() * 1000),
        })
        await room.note_talk(message)
        frame = dumps(outgoing.chat(False, [public(message)]))
        for viewer in room.connections():
            if visible(room, viewer, message):
                viewer.send(frame)


def mute(room: Room, conn: Connection, author: str, on: bool) -> None:
    room.talk.mute(conn, author, on)

"""Table talk: chat messages, quick reactions, and the room's talk log. No rules here.

Two channels: a player's message goes to "players" (everyone at the table sees it); a
spectator's goes to "spectators", which players do not see while the game is on (no
kibitzing) and everyone sees once it is over. Messages are not versions: they never
change a view's game part and never make an act stale. They travel in `chat` frames.

The talk log keeps, in order, every message and every clock timeout of the room (`n`
counts them from 1): it is journaled item by item and stored with the finished game, so
the replay shows the same talk. Each channel has its own budget of messages (CHAT_MAX); a
timeout is a game record, never refused for want of room. A message is saved by the
journal's writer without the room lock (actions never wait behind chat) and is sent, and
acknowledged, only once it is durable; one that cannot be saved is refused `unavailable`.

Who said it: a player is "p<seat>"; a spectator is "w<number>", a number tied to a
spectator token the server issues after hello (a `watcher` frame) and the browser sends
back in its next hello, so its number, the mutes others set on it and its chat limit
survive reconnects. The chat limit counts per author and, for spectators, per client
address too (a token is free to drop). Mutes are per connection and only filter what that
connection is sent (the browser tells them again after each hello); a spectator that
drops its token and comes back from the address it chatted from stays muted.
"""

from __future__ import annotations

import base64
import bisect
import hashlib
import hmac
import secrets
import time
import unicodedata
import weakref
from collections.abc import Callable, Iterator, Sequence, Sized
from dataclasses import dataclass, field
from typing import Any, Protocol

from server.jsontext import dumps

from . import outgoing
from .connection import Connection
from .errors import RoomError
from .ratelimit import RateLimit
from .seat import Seat
from .visible import JOINERS, check_visible

TEXT_MAX = 200  # characters after trimming
RECENT = 50  # messages sent to a viewer who arrives or comes back
CHAT_MAX = 1000  # messages a channel keeps for one game (and stores with it)
RECORDS_MAX = 5000  # game records (timeouts) a stored game may carry: at most one a turn
HINTS_MAX = 1000  # hints a game may give (server/bots/hint.py), kept with it for the replay
LOG_MAX = 2 * CHAT_MAX + RECORDS_MAX + HINTS_MAX  # talk items a stored game may carry
REACTIONS = ("thumbs", "sweat", "coffee", "gg", "wait")
PLAYERS, SPECTATORS = "players", "spectators"
BREAKS = "\r\n\t\u2028\u2029"  # shown as spaces


def clean_text(text: str) -> str:
    """A message as stored: NFC, line breaks and tabs as spaces, trimmed, 1..TEXT_MAX
    characters, no control characters (else RoomError chat_invalid), something visible
    (else invisible_text)."""
    text = unicodedata.normalize("NFC", text)
    text = "".join(" " if c in BREAKS else c for c in text).strip()
    if not text:
        raise RoomError("chat_invalid", "a message cannot be empty", 422)
    if len(text) > TEXT_MAX:
        raise RoomError("chat_invalid", f"a message has at most {TEXT_MAX} characters", 422)
    for c in text:
        kind = unicodedata.category(c)
        if kind == "Cc" or kind in ("Cs", "Co", "Cn") or (kind == "Cf" and c not in JOINERS):
            raise RoomError("chat_invalid", "a message cannot contain control characters", 422)
    check_visible(text, "a message")
    return text


@dataclass(frozen=True, slots=True)
class Limits:
    """How fast one author (CHAT_RATE) and one client address's spectators
    (CHAT_ADDRESS_RATE) may chat at a table, per `window` seconds."""

    author: int = 10
    address: int = 30
    window: float = 20.0


@dataclass(slots=True)
class TalkLog:
    items: list[dict[str, Any]] = field(default_factory=list)  # kept chat and timeouts, by n
    n: int = 0  # the last number given
    limits: Limits = field(default_factory=Limits)
    clock: Callable[[], float] = time.monotonic  # the chat limits' clock
    said: dict[str, int] = field(default_factory=lambda: {PLAYERS: 0, SPECTATORS: 0})
    _by_author: RateLimit | None = None
    _by_address: RateLimit | None = None
    # Signs spectator tokens ("<number>.<mac>"): the room keeps no list of them, so a crowd
    # of spectators coming and going costs it nothing. A rebuilt room has a new key.
    _key: bytes = field(default_factory=lambda: secrets.token_bytes(16))
    # Made on a first mute: a weak dictionary costs a room ~1.6 KiB, and most never mute.
    _mutes: weakref.WeakKeyDictionary[Connection, set[str]] | None = None
    _watcher_count: int = 0
    # A spectator who comes back without its token gets a new number, which would shed the
    # mutes set on the old one: a new number from a client address a spectator chatted
    # from is taken for that spectator (new -> old) by the mutes, and only by them.
    # Made when first needed, as the mutes are.
    _spoke_from: dict[str, int] | None = None  # address -> the last number that chatted
    _was: dict[int, int] | None = None

    def add(self, item: dict[str, Any]) -> dict[str, Any]:
        """Log a game record (a timeout) under the next number; never refused."""
        self.n += 1
        item = {"n": self.n, **item}
        self.items.append(item)
        return item

    def reserve(self, channel: str, author: str, address: str | None) -> int:
        """The number of a new message in `channel`, within the author's (and a spectator
        address's) chat limit and the channel's budget; counted until `release`d. Raises
        RoomError chat_slow or chat_full."""
        if self._by_author is None or self._by_address is None:
            self._by_author = RateLimit(self.limits.author, self.limits.window, self.clock)
            self._by_address = RateLimit(self.limits.address, self.limits.window, self.clock)
        if not self._by_author.hit(author) or (
                channel == SPECTATORS and address is not None
                and not self._by_address.hit(address)):
            raise RoomError("chat_slow", "you are chatting too fast; wait a moment", 429)
        if self.said[channel] >= CHAT_MAX:
            raise RoomError("chat_full", f"the {channel}' chat has said enough for one game",
                            409)
        if channel == SPECTATORS and address is not None and author.startswith("w"):
            if self._spoke_from is None:
                self._spoke_from = {}
            self._spoke_from[address] = int(author[1:])
        self.said[channel] += 1
        self.n += 1
        return self.n

    def keep(self, message: dict[str, Any]) -> None:
        """A reserved message is durable: into the log, in number order."""
        bisect.insort(self.items, message, key=lambda i: int(i["n"]))

    def release(self, channel: str) -> None:
        """A reserved message could not be saved: its budget is given back (its number
        stays a gap)."""
        self.said[channel] -= 1

    def load(self, items: list[dict[str, Any]]) -> None:
        self.items = sorted(items, key=lambda i: i["n"])
        self.n = max((i["n"] for i in self.items), default=0)
        chat = [i for i in self.items if i.get("kind") == "chat"]
        self.said = {c: sum(1 for i in chat if i.get("channel") == c)
                     for c in (PLAYERS, SPECTATORS)}
        # New spectators are numbered after those already in the log, never as one of them.
        self._watcher_count = max((int(i["author"][1:]) for i in chat
                                   if str(i.get("author", "")).startswith("w")), default=0)

    def identify(self, conn: Connection, token: str | None,
                 address: str | None = None) -> tuple[int, str]:
        """A spectator's number at this table ("Spectator 3") for `conn`: the number of its
        spectator token if this room signed it, else a new number and token (linked, for
        the mutes, to the last spectator who chatted from `address`). Returns the number
        and the token to give back."""
        number = None if token is None else self._signed_number(token)
        if number is None or token is None:
            self._watcher_count += 1
            number = self._watcher_count
            token = f"{number}.{self._mac(number)}"
            before = None if address is None or self._spoke_from is None \
                else self._spoke_from.get(address)
            if before is not None:
                if self._was is None:
                    self._was = {}
                self._was[number] = before
        conn.watcher = number
        return number, token

    def _mac(self, number: int) -> str:
        digest = hmac.new(self._key, str(number).encode(), hashlib.sha256).digest()[:16]
        return base64.urlsafe_b64encode(digest).decode().rstrip("=")

    def _signed_number(self, token: str) -> int | None:
        number, _, mac = token.partition(".")
        if not number.isascii() or not number.isdigit() or len(number) > 7:
            return None
        n = int(number)
        valid = 1 <= n <= self._watcher_count and hmac.compare_digest(
            mac.encode(), self._mac(n).encode())
        return n if valid else None

    def watcher(self, conn: Connection) -> int:
        """A spectator connection's number (given at hello; a new one if it has none)."""
        return conn.watcher or self.identify(conn, None)[0]

    def mute(self, conn: Connection, author: str, on: bool) -> None:
        if self._mutes is None:
            self._mutes = weakref.WeakKeyDictionary()
        mutes = self._mutes.setdefault(conn, set())
        if on:
            mutes.add(author)
        else:
            mutes.discard(author)

    def muted(self, conn: Connection) -> set[str]:
        return set() if self._mutes is None else self._mutes.get(conn, set())

    def hides(self, conn: Connection, author: str) -> bool:
        """Whether `conn` muted `author`, or the spectator it was before it dropped its
        token (numbers only grow along `_was`: the walk ends)."""
        mutes = self.muted(conn)
        if not mutes:
            return False
        if author in mutes:
            return True
        was = self._was or {}
        number = was.get(int(author[1:])) if author.startswith("w") else None
        while number is not None:
            if f"w{number}" in mutes:
                return True
            number = was.get(number)
        return False


class Table(Protocol):
    """What talk needs of a room (Room is one)."""

    @property
    def talk(self) -> TalkLog: ...
    @property
    def status(self) -> str: ...
    @property
    def seats(self) -> Sequence[Seat]: ...
    @property
    def actions(self) -> Sized: ...
    @property
    def clock(self) -> Callable[[], float]: ...
    def check_open(self) -> None: ...
    def connections(self) -> Iterator[Connection]: ...
    async def note_talk(self, item: dict[str, Any], *, required: bool = False) -> None: ...


def author_of(room: Table, conn: Connection) -> str:
    return f"p{conn.seat}" if conn.seat is not None else f"w{room.talk.watcher(conn)}"


def visible(room: Table, conn: Connection, message: dict[str, Any]) -> bool:
    """Whether `conn` is sent `message` (a chat item): its channel, and its own mutes."""
    if message.get("kind") != "chat" or room.talk.hides(conn, message["author"]):
        return False
    if message["channel"] == SPECTATORS and conn.seat is not None:
        return room.status not in ("waiting", "playing")
    return True


def public(message: dict[str, Any]) -> dict[str, Any]:
    """A chat item as clients get it."""
    return {k: v for k, v in message.items() if k != "kind"}


def send_recent(room: Table, conn: Connection) -> None:
    """Send `conn` the last RECENT messages it may see (for a viewer who arrives or comes
    back; the client replaces its list). Nothing when there is nothing to see."""
    shown = [public(m) for m in room.talk.items if visible(room, conn, m)][-RECENT:]
    if shown:
        conn.send(dumps(outgoing.chat(True, shown)))


def greet(room: Table, conn: Connection, token: str | None, address: str | None = None) -> None:
    """Tell a spectator who it is at this table: its author and the token that keeps it
    (from the one it sent in hello when the room knows it)."""
    number, token = room.talk.identify(conn, token, address)
    conn.send(dumps(outgoing.watcher(token, f"w{number}")))


async def post(room: Table, conn: Connection, text: str | None, reaction: str | None,
               address: str | None = None) -> None:
    """Say something at the table: journal it (without the room lock), then send it to
    whoever may see it. Raises RoomError, with nothing said, if it is refused or cannot be
    made durable (`unavailable`, as an action)."""
    if (text is None) == (reaction is None):
        raise RoomError("malformed", "a chat frame has either text or reaction", 422)
    if reaction is not None and reaction not in REACTIONS:
        raise RoomError("malformed", f"reaction must be one of {', '.join(REACTIONS)}", 422)
    said = None if text is None else clean_text(text)
    room.check_open()
    if not conn.attached:
        raise RoomError("malformed", "send hello first", 422)
    seat = conn.seat
    channel = PLAYERS if seat is not None else SPECTATORS
    author = author_of(room, conn)
    message = {
        "n": room.talk.reserve(channel, author, address),
        "kind": "chat",
        "channel": channel,
        "author": author,
        "seat": seat,
        "name": None if seat is None else room.seats[seat].name,
        "text": said,
        "reaction": reaction,
        "after": len(room.actions),
        "at": round(room.clock() * 1000),
    }
    try:
        await room.note_talk(message, required=True)
    except RoomError:
        room.talk.release(channel)
        raise
    room.talk.keep(message)
    frame = dumps(outgoing.chat(False, [public(message)]))
    for viewer in room.connections():
        if visible(room, viewer, message):
            viewer.send(frame)


def mute(room: Table, conn: Connection, author: str, on: bool) -> None:
    room.talk.mute(conn, author, on)

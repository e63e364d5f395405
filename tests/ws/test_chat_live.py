"""Chat against a real server process over real sockets: spectators cannot silence the
players (their own budget, a chat limit per author that a reconnect does not reset, and
per address behind it), a mute follows a spectator across reconnects, and text that shows
nothing is refused, in chat and in names."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from tests.serving import served


class Socket:
    """One table socket: hello, then frames as dicts."""

    def __init__(self, url: str, code: str, token: str | None = None,
                 watcher: str | None = None) -> None:
        self.ws: ClientConnection = connect(
            f"{url.replace('http', 'ws', 1)}/ws/{code}", open_timeout=5,
            max_queue=None).__enter__()  # never stops reading: a close is answered at once
        hello: dict[str, Any] = {"type": "hello", "token": token}
        if watcher is not None:
            hello["watcher"] = watcher
        self.ws.send(json.dumps(hello))
        self.author: str | None = None
        self.token: str | None = None
        if token is None:  # a spectator is told who it is after its snapshot
            frame = self.next("watcher")
            self.author, self.token = frame["author"], frame["token"]

    def next(self, *kinds: str) -> dict[str, Any]:
        """The next frame of one of these types (views and pongs are passed over)."""
        while True:
            frame = json.loads(self.ws.recv(timeout=10))
            if frame["type"] in kinds:
                return frame
            assert frame["type"] in ("snapshot", "patch", "pong", "chat", "watcher"), frame

    def say(self, text: str, frame_id: str = "c") -> dict[str, Any]:
        """Send a message; its ack or error."""
        self.ws.send(json.dumps({"type": "chat", "id": frame_id, "text": text}))
        while True:
            frame = self.next("ack", "error")
            if frame["id"] == frame_id:
                return frame

    def close(self) -> None:
        self.ws.close()


def answer(frame: dict[str, Any]) -> str:
    return "ack" if frame["type"] == "ack" else frame["code"]


def playing_table(url: str) -> tuple[str, list[str]]:
    """A started two-player room: its code and seat tokens."""
    with httpx.Client(base_url=url, timeout=10) as api:
        room = api.post("/api/rooms", json={"players": 2}).json()
        tokens = [api.post(f"/api/rooms/{room['code']}/join", json={"name": n}).json()
                  ["seat_token"] for n in ("Ana", "Bo")]
        assert api.post(f"/api/rooms/{room['code']}/start",
                        json={"token": room["host_token"]}).is_success
    return room["code"], tokens


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder: Path = tmp_path_factory.mktemp("chat-live")
    with served(folder / "db.sqlite", CHAT_RATE="3", CHAT_ADDRESS_RATE="8",
                WS_FLOOD_MESSAGES="1000", BOT_WORKERS="0", PRESENCE_INTERVAL="0") as url:
        yield url


def test_spectators_cannot_chat_the_players_quiet(server: str) -> None:
    """Issue 25 point 7: a crowd of spectators from one address, each reconnecting to get a
    fresh start, runs into the per-author and per-address limits; the players' chat is
    not touched."""
    code, tokens = playing_table(server)
    ana = Socket(server, code, tokens[0])
    loud = Socket(server, code)
    try:
        assert [answer(loud.say(f"spam {i}", f"s{i}")) for i in range(3)] == ["ack"] * 3
        assert answer(loud.say("spam 3", "s3")) == "chat_slow"
        # A reconnect with its token is the same author: still over its limit.
        author, token = loud.author, loud.token
        loud.close()
        loud = Socket(server, code, watcher=token)
        assert loud.author == author and loud.token == token
        assert answer(loud.say("again", "s4")) == "chat_slow"
        # Dropping the token gives a new author, but the address has its own limit.
        crowd = [Socket(server, code) for _ in range(6)]
        answers = [answer(s.say("hello", f"h{i}")) for i, s in enumerate(crowd)]
        assert answers == ["ack"] * 5 + ["chat_slow"]  # 3 + 5 = CHAT_ADDRESS_RATE (8)
        for s in crowd:
            s.close()
        # The players are not limited by any of it.
        assert [answer(ana.say(f"hi {i}", f"a{i}")) for i in range(3)] == ["ack"] * 3
    finally:
        ana.close()
        loud.close()


def test_a_mute_follows_a_spectator_across_reconnects(server: str) -> None:
    """Issue 25 point 10: a spectator who reconnects with its token keeps its author, so
    a viewer who muted it stays rid of it."""
    code, _ = playing_table(server)
    reader = Socket(server, code)
    talker = Socket(server, code)
    other = Socket(server, code)
    try:
        reader.ws.send(json.dumps({"type": "mute", "author": talker.author}))
        token, author = talker.token, talker.author
        talker.close()
        talker = Socket(server, code, watcher=token)
        assert talker.author == author
        assert answer(talker.say("still me", "t1")) == "ack"
        assert answer(other.say("someone else", "o1")) == "ack"
        said = reader.next("chat")["messages"]
        assert [m["text"] for m in said] == ["someone else"]  # not the muted one's
        # An unknown token (say, the table's server restarted) gets a fresh author.
        stranger = Socket(server, code, watcher="not-a-token-of-this-table")
        assert stranger.author not in (author, other.author) and stranger.token != token
        stranger.close()
    finally:
        for s in (reader, talker, other):
            s.close()


def test_a_muted_spectator_who_drops_its_token_stays_muted(server: str) -> None:
    """Issue 41 point 20: a muted spectator who comes back without its token (a new
    author) from the address it spoke from is still muted for whoever muted it; a
    spectator from that address who arrived before it spoke is not."""
    code, _ = playing_table(server)
    reader = Socket(server, code)
    other = Socket(server, code)
    talker = Socket(server, code)
    try:
        assert answer(talker.say("first words", "t0")) == "ack"
        assert reader.next("chat")["messages"][0]["text"] == "first words"
        reader.ws.send(json.dumps({"type": "mute", "author": talker.author}))
        author = talker.author
        talker.close()
        talker = Socket(server, code)  # no token: a new number
        assert talker.author != author
        assert answer(talker.say("new me", "t1")) == "ack"
        assert answer(other.say("someone else", "o1")) == "ack"
        said = reader.next("chat")["messages"]
        assert [m["text"] for m in said] == ["someone else"]  # not the muted one's
        # Unmuting the old author lets the new one through too.
        reader.ws.send(json.dumps({"type": "mute", "author": author, "muted": False}))
        assert answer(talker.say("heard again", "t2")) == "ack"
        assert [m["text"] for m in reader.next("chat")["messages"]] == ["heard again"]
    finally:
        for s in (reader, talker, other):
            s.close()


INVISIBLE = ["\u200d", "\u3164", "\u2800", "\u3164\u2800\u200d", "\u2028\u200d",
             "a" + "\u0301" * 199, " \u200c\u200d "]
SHOWN = ["👩‍🍳", "น้ำ", "한국어", "1️⃣", "café"]


def test_text_that_shows_nothing_is_refused_in_chat_and_names(server: str) -> None:
    """Issue 25 point 11: messages and names made only of invisible, blank or format
    characters, or one letter under a pile of combining marks, get `invisible_text`."""
    code, tokens = playing_table(server)
    ana = Socket(server, code, tokens[0])
    try:
        for i, text in enumerate(INVISIBLE):
            got = ana.say(text, f"i{i}")
            assert answer(got) == "invisible_text", repr(text)
        # A line separator is a line break, shown as a space: alone, the message is empty.
        assert answer(ana.say("\u2028", "ls")) == "chat_invalid"
        for i, text in enumerate(SHOWN[:3]):
            assert answer(ana.say(text, f"v{i}")) == "ack", text
    finally:
        ana.close()
    with httpx.Client(base_url=server, timeout=10) as api:
        room = api.post("/api/rooms", json={"players": 4}).json()
        for name in ["\u200d", "\u3164", "\u2800", "\u3164\u3164", "a" + "\u0301" * 23,
                     "x\u2028y"]:
            refused = api.post(f"/api/rooms/{room['code']}/join", json={"name": name})
            assert refused.status_code == 422, repr(name)
            assert refused.json()["error"]["code"] == "invisible_text", repr(name)
        for name in SHOWN[:4]:
            assert api.post(f"/api/rooms/{room['code']}/join", json={"name": name}).is_success

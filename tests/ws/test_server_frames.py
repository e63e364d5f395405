"""Every server frame is built in server.rooms.outgoing, and what each builder makes is
what its documenting model (the source of PROTOCOL.md's schemas) describes."""

from __future__ import annotations

import json
import re
from pathlib import Path

from pydantic import TypeAdapter

from server.rooms import outgoing
from server.rooms.diff import Op
from server.rooms.history import Entry, FrameTexts

ANY = TypeAdapter(outgoing.AnyServerFrame)
VIEW = {
    "room": {"code": "K7QX-PM2A", "status": "waiting", "options": {"players": 2},
             "host_seat": None, "seats": [], "spectators": 0},
    "you": {"seat": None, "role": "spectator"},
    "game": None,
}
MESSAGE = {"n": 1, "channel": "players", "author": "p0", "seat": 0, "name": "Ana", "text": "hi",
           "reaction": None, "after": 0, "at": 5}
BUILT = {
    "snapshot": outgoing.snapshot(3, VIEW),
    "patch": outgoing.patch(4, [{"op": "replace", "path": "/room/spectators", "value": 1}],
                            [{"type": "spectators", "count": 1}]),
    "ack": outgoing.ack("a1", 4),
    "error": outgoing.error(None, "stale", "the game changed"),
    "bye": outgoing.bye("kicked"),
    "pong": outgoing.PONG,
    "chat": outgoing.chat(True, [MESSAGE]),
    "watcher": outgoing.watcher("t0k3n", "w3"),
    "hint": outgoing.hint("h1", {"type": "serve", "cup": 0, "card": 12}, [],
                          {"key": "hint.why.serve", "args": {"order": "Mocha", "tab": 4}}, 31),
}


def test_every_documented_frame_has_a_builder_whose_output_it_describes() -> None:
    documented = {m.model_fields["type"].annotation.__args__[0] for m in outgoing.SERVER_FRAMES}
    assert documented == set(BUILT)
    for kind, frame in BUILT.items():
        parsed = ANY.validate_python(frame)
        assert parsed.type == kind
        assert parsed.model_dump(mode="json", exclude_unset=True) == frame


def test_the_patch_text_the_room_sends_is_the_documented_patch() -> None:
    shared: list[Op] = [{"op": "add", "path": "/x", "value": 1}]
    by_seat: dict[int | None, list[Op]] = {0: [{"op": "remove", "path": "/y"}]}
    events = [{"type": "presence", "seat": 0}]
    texts = FrameTexts(Entry(7, shared, by_seat, events))
    for seat in (None, 0):
        frame = json.loads(texts.text(seat))
        ANY.validate_python(frame)
        assert frame == outgoing.patch(7, shared + by_seat.get(seat, []), events)


def test_no_frame_is_built_outside_the_owner_module() -> None:
    server = Path(__file__).resolve().parents[2] / "server"
    kinds = "|".join(BUILT)
    pattern = re.compile(rf'"type":\s*"({kinds})"')
    offenders = [str(p) for p in server.rglob("*.py")
                 if p.name != "outgoing.py" and pattern.search(p.read_text())]
    assert offenders == []

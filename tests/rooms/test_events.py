"""The event registry (server/rooms/events.py) is the events: every event the engine or a room
emits is registered with the fields its sentence uses, and static/js/table/log.js makes a whole
sentence of each in every language from the registry alone."""

from __future__ import annotations

import ast
import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from server.api.rules_data import rules_data
from server.bots import greedy
from server.rooms.events import EVENTS, KINDS
from server.rules import apply, legal_actions, new_game

ROOT = Path(__file__).resolve().parents[2]


def engine_events() -> dict[str, list[dict[str, Any]]]:
    """Every event of seeded games with 2, 3 and 4 players, by type: random moves (and now
    and then an undo) in some, the greedy bot's in others (random play never upgrades)."""
    found: dict[str, list[dict[str, Any]]] = {}
    for seed in range(24):
        game, rng = new_game(seed, 2 + seed % 3), random.Random(seed)
        while game.phase != "over":
            legal = legal_actions(game)
            action = greedy.as_legal(greedy.act(game), legal) if seed % 2 else rng.choice(legal)
            if action["type"] != "end_turn" and rng.random() < 0.02 and game.turn_log:
                action = {"type": "undo"}
            for ev in apply(game, action, game.current):
                found.setdefault(ev["type"], []).append(ev)
    return found


def room_events() -> dict[str, set[str]]:
    """The fields of every event the room modules build, by type: each dict literal with a
    constant "type" (but the frames: outgoing.py builds those)."""
    found: dict[str, set[str]] = {}
    for path in (ROOT / "server" / "rooms").rglob("*.py"):
        if path.name == "outgoing.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Dict):
                continue
            keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and key.value == "type" \
                        and isinstance(value, ast.Constant):
                    found.setdefault(value.value, set()).update(keys - {"type"})
    return found


def room_event_types() -> set[str]:
    return set(room_events())


ENGINE = engine_events()
# Room events as the room builds them (server/rooms/seating.py, timeouts.py, room/).
ROOM_SAMPLES = [
    {"type": "seat_joined", "seat": 1, "name": "Bo"},
    {"type": "seat_left", "seat": 1},
    {"type": "seat_kicked", "seat": 1},
    {"type": "host_changed", "seat": 1},
    {"type": "bot_added", "seat": 1, "level": "greedy"},
    {"type": "presence", "seat": 1, "connected": True},
    {"type": "presence", "seat": 1, "connected": False},
    {"type": "stand_in", "seat": 1, "level": "greedy"},
    {"type": "game_started"},
    {"type": "timeout", "seat": 1, "level": "greedy", "away": False},
    {"type": "timeout", "seat": 1, "level": "greedy", "away": True},
    {"type": "back", "seat": 1},
    {"type": "clock_set", "clock": {"turn": 60, "bank": 300}},
    {"type": "clock_set", "clock": None},
    {"type": "spectators", "count": 2},
    {"type": "rematch", "code": "ABCD-EFGH"},
    {"type": "late", "seat": 1},
    {"type": "abandoned", "seat": 0},
    {"type": "away", "seat": 1, "hours": 48},
]


def test_every_emitted_event_is_registered_and_every_registered_one_is_emitted():
    emitted = set(ENGINE) | room_event_types()
    assert emitted == set(EVENTS)
    assert {ev["type"] for ev in ROOM_SAMPLES} == room_event_types()


def test_each_event_carries_the_fields_the_registry_declares():
    for type_, events in ENGINE.items():
        assert all(set(ev) == {"type", *EVENTS[type_].fields} for ev in events), type_
    for type_, fields in room_events().items():
        assert fields == set(EVENTS[type_].fields), type_


def test_each_event_type_gives_the_fields_its_sentence_reads():
    for type_, events in ENGINE.items():
        spec = EVENTS[type_]
        for ev in events:
            for path, _kind in spec.args.values():
                head, *rest = path.split(".")
                assert head in ev and (not rest or rest[0] in ev[head]), (type_, path, ev)
            if spec.by is not None:
                assert ev[spec.by] in spec.values, (type_, ev)
    assert all(kind in KINDS for e in EVENTS.values() for _, kind in e.args.values())
    formats = (ROOT / "static" / "js" / "table" / "log.js").read_text()
    assert all(f"\n  {kind}: " in formats for kind in KINDS), "a kind log.js cannot show"


RENDER = """
let text = "";
for await (const chunk of process.stdin) text += chunk;
const input = JSON.parse(text);
globalThis.localStorage = { getItem: () => null, setItem: () => {} };
Object.defineProperty(globalThis, "navigator", { value: { languages: ["en"] },
  configurable: true });
globalThis.document = { documentElement: { lang: "" }, querySelectorAll: () => [] };
const { setRulesData } = await import(input.root + "/static/js/core/rules-data.js");
const { setLang } = await import(input.root + "/static/js/lang/i18n.js");
const { sentence } = await import(input.root + "/static/js/table/log.js");
setRulesData(input.data);
const nameOf = (seat) => `Seat${seat}`;
nameOf.seatCount = 3;
const out = {};
for (const lang of ["en", "th", "ko"]) {
  setLang(lang);
  out[lang] = input.events.map((ev) => sentence(ev, nameOf));
}
console.log(JSON.stringify(out));
"""


def test_the_browser_makes_a_whole_sentence_of_every_event_in_every_language():
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    events = [evs[len(evs) // 2] for evs in ENGINE.values()] + ROOM_SAMPLES
    events += [ev for evs in ENGINE.values() for ev in evs
               if ev.get("rush_spent") or ev.get("rush_gained") or ev.get("penalties")
               or ev.get("reason") == "too_many_orders"][:40]
    done = subprocess.run(
        [node, "--input-type=module", "-e", RENDER], capture_output=True, text=True,
        check=True, input=json.dumps({"root": str(ROOT), "data": rules_data(), "events": events}))
    for lang, lines in json.loads(done.stdout).items():
        for ev, line in zip(events, lines, strict=True):
            if EVENTS[ev["type"]].sentence is None:
                assert line is None
                continue
            assert line and "{" not in line and not line.startswith("ev."), (lang, ev, line)
            if EVENTS[ev["type"]].args.get("name") == ("seat", "seat"):
                assert f"Seat{ev['seat']}" in line, (lang, ev, line)

"""The whole game's log (issue 26): a viewer who reloads or arrives late gets every event
since the first turn from GET /api/rooms/{code}/events, exactly the events the patch
frames carried, each with the version that carried it (the game's own are replayed from
its actions on demand; of the room's other events, the last few are kept)."""

from __future__ import annotations

import json
import random

from tests.ws.test_bad_input import seated


def carried(viewer) -> list[dict]:
    """Every event this viewer's patch frames carried, with the frame's version."""
    out = []
    for text in viewer.texts:
        frame = json.loads(text)
        if frame["type"] == "patch":
            out += [{"v": frame["v"], "event": e} for e in frame["events"]]
    return out


def test_the_log_goes_back_to_the_first_turn_and_matches_what_was_sent(table, connect):
    t, seats = seated(table, connect)
    rng = random.Random(5)
    acted = 0
    while t.room.game.phase != "over" and acted < 150:  # far more than the 80 kept as text
        actor = seats[t.room.game.current]
        actor.sync(t.room.v)
        actor.send({"type": "act", "id": acted, "v": actor.v,
                    "action": rng.choice(actor.view["game"]["legal"])})
        actor.expect("ack")
        acted += 1
    watcher = seats[0]
    watcher.sync(t.room.v)
    sent = carried(watcher)
    assert len(sent) > 80
    got = t.client.get(f"/api/rooms/{t.code}/events").json()
    # Every game event since this socket's snapshot, in order, and the game's start before
    # it; of the room's other events (presence, seats), the recent ones.
    played = set(t.room.action_versions)
    assert len(played) == acted
    game_events = [e for e in got["events"] if e["v"] in played]
    assert game_events == [e for e in sent if e["v"] in played]
    assert got["events"][-20:] == sent[-20:]
    assert game_events[0]["v"] == min(played)  # the first action's events: turn 1
    assert game_events[0]["event"]["type"] == "placed"  # R-SETUP: the first meeple placed
    versions = [e["v"] for e in got["events"]]
    assert versions == sorted(versions)
    upto = sent[10]["v"]
    assert all(e["v"] <= upto for e in
               t.client.get(f"/api/rooms/{t.code}/events", params={"upto": upto}).json()["events"])

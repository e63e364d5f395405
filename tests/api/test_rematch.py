"""Play again: one rematch room per finished table, same options, same bots, everyone told."""

from __future__ import annotations

import random

from server.rules import legal_actions


def finish(table) -> None:
    """Play the room's game to its end with random legal actions (through the room)."""
    room = table.room
    rng = random.Random(3)
    while room.game.phase != "over":
        action = rng.choice(legal_actions(room.game))
        table.client.portal.call(room.act, room.game.current, dict(action), room.v)


def test_the_first_player_to_ask_opens_the_next_table_for_everyone(table, connect):
    t = table(3, starter_orders=True, public=True)
    t.join_all()
    r = t.client.post(f"/api/rooms/{t.code}/kick", json={"token": t.host_token, "seat": 2})
    assert r.status_code == 200
    r = t.client.post(f"/api/rooms/{t.code}/bot",
                      json={"token": t.host_token, "seat": 2, "level": "greedy"})
    assert r.status_code == 200
    t.start()
    early = t.client.post(f"/api/rooms/{t.code}/rematch", json={"token": t.tokens[0]})
    assert early.status_code == 409 and early.json()["error"]["code"] == "not_finished"
    finish(t)
    watcher = connect(t.code)
    watcher.hello()
    watcher.recv()  # the snapshot

    first = t.client.post(f"/api/rooms/{t.code}/rematch", json={"token": t.tokens[1]})
    assert first.status_code == 200, first.text
    new = first.json()
    assert new["url"] == f"/r/{new['code']}" and new["host_token"]
    again = t.client.post(f"/api/rooms/{t.code}/rematch", json={"token": t.tokens[0]}).json()
    # One room, one host token; each player gets their own new seat token.
    assert again.keys() == {"code", "url", "seat_token"} and again["code"] == new["code"]
    assert again["seat_token"] not in (new["seat_token"], t.tokens[0])
    twice = t.client.post(f"/api/rooms/{t.code}/rematch", json={"token": t.tokens[0]}).json()
    assert twice["seat_token"] == again["seat_token"]  # asking again is harmless

    told = {"type": "rematch", "code": new["code"]}
    patch = watcher.recv()
    while told not in patch.get("events", []):  # past the watcher's own presence patch
        patch = watcher.recv()
    assert {"op": "add", "path": "/room/rematch", "value": new["code"]} in patch["ops"]
    info = t.client.get(f"/api/rooms/{new['code']}").json()
    assert info["status"] == "waiting"
    assert info["options"] == {"players": 3, "starter_orders": True, "starting_player": None,
                               "public": True}
    assert [s["bot"] for s in info["seats"]] == [None, None, "greedy"]
    # Everyone stays seated, under the same names, and the host stays the host.
    old = t.client.get(f"/api/rooms/{t.code}").json()
    assert [s["name"] for s in info["seats"]] == [s["name"] for s in old["seats"][:2]] + [None]
    assert info["host_seat"] == old["host_seat"]
    for seat, token in ((0, again["seat_token"]), (1, new["seat_token"])):
        player = connect(new["code"])
        player.hello(token)
        assert player.recv()["view"]["you"]["seat"] == seat


def test_only_players_of_the_table_may_ask(table):
    t = table(2)
    t.join_all()
    t.start()
    finish(t)
    r = t.client.post(f"/api/rooms/{t.code}/rematch", json={"token": t.host_token + "x"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"

"""Chat over websockets: two channels, reactions, length and control characters, plain
text, mute, the shared flood budget, recent messages on (re)arrival, and no version."""

from __future__ import annotations

from typing import Any

from conftest import Table, Viewer
from fastapi.testclient import TestClient

from server.main import create_app


def chat_frame(viewer: Viewer) -> dict[str, Any]:
    return viewer.expect("chat")


def seated(table: Table, client: TestClient):
    """Ana (seat 0), Bo (seat 1) and a spectator, all greeted, the game on."""
    table.join_all()
    table.start()
    return table


def open_all(client: TestClient, code: str, tokens: list[str | None]):
    sockets = [client.websocket_connect(f"/ws/{code}") for _ in tokens]
    viewers = []
    for ws, token in zip(sockets, tokens, strict=True):
        viewer = Viewer(ws.__enter__())
        viewer.hello(token)
        viewer.expect_snapshot = viewer.recv()
        viewers.append(viewer)
    return sockets, viewers


def close_all(sockets) -> None:
    for ws in reversed(sockets):
        ws.__exit__(None, None, None)


def test_players_chat_is_seen_by_all_spectators_chat_only_by_spectators(client, table):
    t = seated(table(2), client)
    sockets, (ana, bo, watcher) = open_all(client, t.code, [t.tokens[0], t.tokens[1], None])
    try:
        v = t.room.v
        ana.send({"type": "chat", "id": 1, "text": "  hi <b>all</b>\n:) "})
        assert ana.expect("chat")["messages"][0]["text"] == "hi <b>all</b> :)"
        assert ana.expect("ack") == {"type": "ack", "id": 1, "v": v}
        for viewer in (bo, watcher):
            message = chat_frame(viewer)["messages"][0]
            assert message["text"] == "hi <b>all</b> :)"  # plain text, as typed
            assert (message["channel"], message["author"], message["name"]) == (
                "players", "p0", "P0")
        watcher.send({"type": "chat", "id": "w", "reaction": "coffee"})
        said = chat_frame(watcher)["messages"][0]
        assert said["channel"] == "spectators" and said["reaction"] == "coffee"
        assert said["author"].startswith("w") and said["name"] is None
        # Players do not get it: the next frame Bo sees is his own message.
        bo.send({"type": "chat", "id": 2, "reaction": "gg"})
        assert chat_frame(bo)["messages"][0]["reaction"] == "gg"
        assert t.room.v == v  # chat is not a version
    finally:
        close_all(sockets)


def test_bad_messages_are_refused_with_a_code_and_change_nothing(client, table):
    t = seated(table(2), client)
    sockets, (ana,) = open_all(client, t.code, [t.tokens[0]])
    try:
        cases = [
            ({"text": "x" * 201}, "chat_invalid"),
            ({"text": "   "}, "chat_invalid"),
            ({"text": "bell\x07"}, "chat_invalid"),
            ({"text": "evil\u202eright-to-left"}, "chat_invalid"),
            ({"text": "a", "reaction": "gg"}, "malformed"),
            ({}, "malformed"),
            ({"reaction": "poop"}, "malformed"),
            ({"text": 5}, "malformed"),
        ]
        for n, (body, code) in enumerate(cases):
            ana.send({"type": "chat", "id": n, **body})
            error = ana.expect("error")
            assert (error["code"], error["id"]) == (code, n), (body, error)
        assert t.room.talk.items == []
        ana.send({"type": "chat", "id": "ok", "text": "👩‍🍳 ok"})  # a joiner inside emoji is fine
        assert chat_frame(ana)["messages"][0]["text"] == "👩‍🍳 ok"
    finally:
        close_all(sockets)


def test_mute_hides_one_author_for_this_viewer_only(client, table):
    t = seated(table(3), client)
    sockets, (ana, bo, cy) = open_all(client, t.code, t.tokens)
    try:
        bo.send({"type": "mute", "author": "p0"})
        ana.send({"type": "chat", "id": 1, "text": "spam"})
        assert chat_frame(cy)["messages"][0]["text"] == "spam"
        cy.send({"type": "chat", "id": 2, "text": "hello"})
        assert chat_frame(bo)["messages"][0]["text"] == "hello"  # not Ana's
        bo.send({"type": "mute", "author": "p0", "muted": False})
        ana.send({"type": "chat", "id": 3, "text": "back"})
        assert chat_frame(bo)["messages"][0]["text"] == "back"
        bo.send({"type": "mute", "author": "seat0"})
        assert bo.expect("error")["code"] == "malformed"
    finally:
        close_all(sockets)


def test_recent_messages_on_arrival_and_reload(make_settings):
    with TestClient(create_app(make_settings(CHAT_RATE=100))) as client:
        _recent_messages_on_arrival_and_reload(client, Table(client, 2))


def _recent_messages_on_arrival_and_reload(client, table):
    t = seated(table, client)
    sockets, (ana, bo, watcher) = open_all(client, t.code, [t.tokens[0], t.tokens[1], None])
    try:
        for n in range(60):
            ana.send({"type": "chat", "id": n, "text": f"m{n}"})
            ana.expect("chat")
            ana.expect("ack")
        watcher.send({"type": "chat", "id": "w", "text": "kibitz"})
        while chat_frame(watcher)["messages"][0]["text"] != "kibitz":
            pass
    finally:
        close_all(sockets)
    with client.websocket_connect(f"/ws/{t.code}") as ws:
        bo = Viewer(ws)
        bo.hello(t.tokens[1], v=None)
        recent = chat_frame(bo)
        assert recent["recent"] is True
        texts = [m["text"] for m in recent["messages"]]
        assert texts == [f"m{n}" for n in range(10, 60)]  # the last 50, no spectators' chat
    with client.websocket_connect(f"/ws/{t.code}") as ws:
        late = Viewer(ws)
        late.hello(None)
        texts = [m["text"] for m in chat_frame(late)["messages"]]
        assert texts[-1] == "kibitz" and len(texts) == 50


def test_chat_shares_the_connection_flood_budget(make_settings):
    with TestClient(create_app(make_settings(WS_FLOOD_MESSAGES=8))) as client:
        t = seated(Table(client, 2), client)
        with client.websocket_connect(f"/ws/{t.code}") as ws:
            ana = Viewer(ws)
            ana.hello(t.tokens[0])
            for n in range(7):
                ana.send({"type": "chat", "id": n, "reaction": "thumbs"})
            ana.send({"type": "chat", "id": "too many", "text": "flood"})
            frames = []
            while True:
                frame = ana.recv()
                frames.append(frame)
                if frame["type"] == "bye":
                    break
            assert [f["code"] for f in frames if f["type"] == "error"] == ["flood"]
            assert frame["reason"] == "flood"
            assert len(t.room.talk.items) == 7


def test_spectators_chat_opens_to_players_once_the_game_is_over(client, table):
    t = seated(table(2), client)
    room = t.room
    sockets, (ana, watcher) = open_all(client, t.code, [t.tokens[0], None])
    try:
        watcher.send({"type": "chat", "id": 1, "text": "nice move"})
        chat_frame(watcher)
        while room.game.phase != "over":
            seat = room.game.current
            client.portal.call(room.act, seat, room.view(seat)["game"]["legal"][-1], room.v)
        frame = chat_frame(ana)
        assert frame["recent"] is True
        assert [m["text"] for m in frame["messages"]] == ["nice move"]
    finally:
        close_all(sockets)

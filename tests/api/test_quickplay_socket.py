"""The lobby socket (/lobby/socket, server/api/quickplay.py): what it takes and refuses.
Guests quick-play casual games under a name a table would take; rated needs an account,
whose cookie counts only from this site; one seek per player; bad frames get a coded error
and the socket stays open; without a database there is no quick play."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from server.main import create_app
from server.rooms import NullJournal

SITE = {"Origin": "http://testserver"}


def until(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        frame = json.loads(ws.receive_text())
        if frame["type"] == kind:
            return frame
        assert frame["type"] == "lobby", frame


def play(ws: Any, **fields: Any) -> None:
    ws.send_text(json.dumps({"type": "play", **fields}))


def test_guests_play_casual_under_a_name_a_table_would_take(client: TestClient) -> None:
    with client.websocket_connect("/lobby/socket", headers=SITE) as ws:
        play(ws, rated=True, name="Ann")
        assert until(ws, "error")["code"] == "not_signed_in"
        play(ws, name="   ")
        assert until(ws, "error")["code"] == "name_invalid"
        play(ws, name="Robot")
        assert until(ws, "error")["code"] == "name_reserved"
        ws.send_text('{"type": "play", "size": 5}')
        assert until(ws, "error")["code"] == "malformed"
        ws.send_text("not json")
        assert until(ws, "error")["code"] == "malformed"
        play(ws, name="Ann", size=4)
        assert until(ws, "queued")["seek"] > 0
        listed = until(ws, "lobby")
        assert [(s["size"], s["rated"], s["ratings"]) for s in listed["seeks"]] == [
            (4, False, [None])]
        play(ws, name="Ann", size=4)
        assert until(ws, "error")["code"] == "seek_exists"
        ws.send_text('{"type": "cancel"}')
        until(ws, "cancelled")
        assert until(ws, "lobby")["seeks"] == []


def test_an_account_plays_rated_once_and_only_from_this_site(make_settings) -> None:  # noqa: ANN001
    # Any site may open the socket (ALLOWED_ORIGINS *), but only this site's page signs in.
    with TestClient(create_app(make_settings(ALLOWED_ORIGINS=["*"]))) as client:
        made = client.post("/api/accounts", json={"name": "Rhea", "password": "correct horse"},
                           headers=SITE)
        assert made.status_code == 201, made.text
        with client.websocket_connect("/lobby/socket",
                                      headers={"Origin": "http://evil.example"}) as foreign:
            play(foreign, rated=True, size=3)  # the cookie is not used: a guest's rated seek
            assert until(foreign, "error")["code"] == "not_signed_in"
        with client.websocket_connect("/lobby/socket", headers=SITE) as ws, \
                client.websocket_connect("/lobby/socket", headers=SITE) as other_tab:
            play(ws, rated=True, size=3)
            until(ws, "queued")
            assert until(ws, "lobby")["seeks"][0]["ratings"] == [1500]  # a new account's
            play(other_tab, rated=True, size=3)
            assert until(other_tab, "error")["code"] == "seek_exists"


def test_another_site_cannot_open_the_socket_unless_allowed(client: TestClient) -> None:
    try:
        with client.websocket_connect("/lobby/socket", headers={"Origin": "http://evil.example"}):
            raise AssertionError("the handshake was accepted")
    except WebSocketDisconnect as refused:
        assert refused.code == 1008


def test_without_a_database_there_is_no_quick_play(settings) -> None:  # noqa: ANN001
    with TestClient(create_app(settings, journal=NullJournal())) as bare, \
            bare.websocket_connect("/lobby/socket") as ws:
        play(ws, name="Ann")
        assert until(ws, "error")["code"] == "quickplay_off"

"""The guided first game over HTTP (issue 45): POST /api/lessons makes a real room with the
`lesson` option, already started, the caller in seat 0 against a greedy bot; it is
unrated and unlisted; the pointer route answers for a lesson only (`not_lesson`), from the
seat's own view, once per version; bad input is refused with its code."""

from __future__ import annotations

from fastapi.testclient import TestClient

from server.db.ratings import rated_accounts
from server.main import create_app
from tests.api.test_rooms_api import error
from tests.serving import ROOT


def start(client, name="Mina"):
    made = client.post("/api/lessons", json={"name": name})
    assert made.status_code == 201, made.text
    return made.json()


def test_one_click_starts_a_real_lesson_room(client):
    made = start(client)
    assert made["seat"] == 0 and made["url"] == f"/r/{made['code']}" and made["seat_token"]
    info = client.get(f"/api/rooms/{made['code']}").json()
    assert info["status"] == "playing"
    assert info["options"] == {"players": 2, "starter_orders": False, "starting_player": 0,
                               "lesson": True, "rated": False, "public": False}
    assert [(s["name"], s["bot"]) for s in info["seats"]] == [("Mina", None), (None, "greedy")]
    listed = client.get("/api/rooms").json()
    assert made["code"] not in str(listed)  # not public
    assert rated_accounts(info["options"], None, []) is None  # never rated


def test_only_a_lesson_table_loads_the_lesson(make_settings):
    with TestClient(create_app(make_settings(TEMPLATES_DIR=ROOT / "templates"))) as client:
        lesson_page = client.get(start(client)["url"]).text
        normal = client.get(client.post("/api/rooms", json={"players": 2}).json()["url"]).text
        lobby, rules = client.get("/").text, client.get("/rules").text
    assert "/static/js/learn/lesson.js" in lesson_page
    assert "/static/js/learn/lesson.js" not in normal
    for page in (lobby, rules):  # "Learn to play" is one click from both
        assert "data-learn-start" in page and "/static/js/learn/start.js" in page


def test_the_pointer_is_for_the_seat_to_act_and_one_of_its_legal_actions(client):
    made = start(client)
    code = made["code"]
    pointer = client.get(f"/api/rooms/{code}/lesson").json()
    room = client.app.state.rooms.get(code)
    seat = room.game.current
    if seat == 0:  # the bot may have placed already
        assert pointer["seat"] == 0 and pointer["action"] in room.view(0)["game"]["legal"]
        assert pointer["note"] == "board"
    else:  # the bot's turn: nothing to point at
        assert pointer["seat"] == 1 and pointer["action"] is None
    assert client.get(f"/api/rooms/{code}/lesson").json() == pointer  # kept per version


def test_a_normal_room_gives_no_pointer(client):  # R-HIDDEN: no other room is worked on
    code = client.post("/api/rooms", json={"players": 2}).json()["code"]
    error(client.get(f"/api/rooms/{code}/lesson"), 409, "not_lesson")
    error(client.get("/api/rooms/K7QX-PM2A/lesson"), 404, "not_found")


def test_a_lesson_is_never_rated(client):
    body = {"players": 2, "lesson": True}
    error(client.post("/api/rooms", json=body), 422, "malformed")
    made = client.post("/api/rooms", json={**body, "rated": False})
    assert made.status_code == 201
    assert rated_accounts({"players": 2, "lesson": True, "rated": True}, None, []) is None


def test_bad_lesson_requests_are_refused(client):
    error(client.post("/api/lessons", json={}), 422, "malformed")
    error(client.post("/api/lessons", json={"name": "A", "seat": 1}), 422, "malformed")
    error(client.post("/api/lessons", json={"name": "   "}), 422, "name_invalid")
    error(client.post("/api/lessons", json={"name": "x" * 30}), 422, "name_invalid")
    error(client.post("/api/lessons", json={"name": "greedy bot"}), 422, "name_reserved")


def test_lessons_count_against_the_rooms_an_address_may_make(make_settings):
    with TestClient(create_app(make_settings(ROOM_CREATE_RATE=2))) as client:
        start(client)
        client.post("/api/rooms", json={"players": 2})
        error(client.post("/api/lessons", json={"name": "Mina"}), 429, "rate_limited")

"""The HTTP API: create, list, inspect, join, leave, start, kick, host, bot; coded errors."""

from __future__ import annotations

import re

import pytest

from server.rules import RULES_VERSION

CODE = re.compile(r"^[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{4}-[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{4}$")


def error(response, status, code):
    assert response.status_code == status, response.text
    body = response.json()
    assert body["error"]["code"] == code and body["error"]["message"], body
    return body


def create(client, **body):
    return client.post("/api/rooms", json={"players": 2, **body})


def test_create_and_inspect(client):
    r = create(client, players=3, starter_orders=True, starting_player=2)
    assert r.status_code == 201
    body = r.json()
    assert CODE.match(body["code"]) and body["url"] == f"/r/{body['code']}"
    assert len(body["host_token"]) >= 32
    info = client.get(f"/api/rooms/{body['code'].lower().replace('-', '')}").json()
    assert info == {
        "code": body["code"], "status": "waiting",
        "options": {"players": 3, "starter_orders": True, "starting_player": 2, "public": False},
        "host_seat": None,
        "seats": [{"seat": s, "name": None, "connected": False, "bot": None} for s in range(3)],
        "spectators": 0,
    }


@pytest.mark.parametrize("body", [
    {"players": 5}, {"players": "2"}, {"players": 2, "starting_player": 2},
    {"players": 2, "public": 1}, {"players": 2, "color": "red"}, {},
])
def test_create_refuses_bad_options(client, body):
    error(client.post("/api/rooms", json=body), 422, "malformed")


def test_bad_json_and_unknown_rooms(client):
    error(client.post("/api/rooms", content=b"{", headers={"content-type": "application/json"}),
          422, "malformed")
    error(client.get("/api/rooms/K7QX-PM2A"), 404, "not_found")
    error(client.get("/api/rooms/nope"), 404, "not_found")
    error(client.post("/api/rooms/K7QX-PM2A/join", json={"name": "A"}), 404, "not_found")


def test_join_leave_and_host(client):
    code = create(client).json()["code"]
    first = client.post(f"/api/rooms/{code}/join", json={"name": "  Ana  "}).json()
    assert first["seat"] == 0
    second = client.post(f"/api/rooms/{code}/join", json={"name": "Bo", "seat": 1}).json()
    info = client.get(f"/api/rooms/{code}").json()
    assert info["host_seat"] == 0 and [s["name"] for s in info["seats"]] == ["Ana", "Bo"]
    error(client.post(f"/api/rooms/{code}/join", json={"name": "Cy"}), 409, "room_full")
    left = client.post(f"/api/rooms/{code}/leave", json={"seat_token": first["seat_token"]})
    assert left.is_success
    info = client.get(f"/api/rooms/{code}").json()
    assert info["host_seat"] == 1 and info["seats"][0]["name"] is None
    error(client.post(f"/api/rooms/{code}/leave", json={"seat_token": first["seat_token"]}),
          403, "forbidden")
    error(client.post(f"/api/rooms/{code}/join", json={"name": "Cy", "seat": 1}), 409, "room_full")
    error(client.post(f"/api/rooms/{code}/join", json={"name": "Cy", "seat": 7}), 422, "malformed")
    assert second["seat_token"] != first["seat_token"]


@pytest.mark.parametrize("name", ["", "   ", "x" * 25, "a\u0000b", "tab\there"])
def test_names(client, name):
    code = create(client).json()["code"]
    error(client.post(f"/api/rooms/{code}/join", json={"name": name}), 422, "name_invalid")


def test_start_kick_host_and_bots(client):
    created = create(client, players=3).json()
    code, host = created["code"], created["host_token"]
    ana = client.post(f"/api/rooms/{code}/join", json={"name": "Ana"}).json()
    bo = client.post(f"/api/rooms/{code}/join", json={"name": "Bo"}).json()
    error(client.post(f"/api/rooms/{code}/start", json={"token": bo["seat_token"]}),
          403, "forbidden")
    error(client.post(f"/api/rooms/{code}/start", json={"token": host}), 409, "seats_empty")
    error(client.post(f"/api/rooms/{code}/bot", json={"token": host, "seat": 2, "level": "Bad!"}),
          422, "malformed")
    assert client.post(f"/api/rooms/{code}/bot",
                       json={"token": host, "seat": 2, "level": "greedy"}).is_success
    seats = client.get(f"/api/rooms/{code}").json()["seats"]
    assert seats[2] == {"seat": 2, "name": None, "connected": True, "bot": "greedy"}
    assert client.post(f"/api/rooms/{code}/host",
                       json={"token": host, "seat": 1}).is_success
    error(client.post(f"/api/rooms/{code}/kick", json={"token": ana["seat_token"], "seat": 1}),
          403, "forbidden")
    assert client.post(f"/api/rooms/{code}/kick",
                       json={"token": bo["seat_token"], "seat": 0}).is_success
    error(client.post(f"/api/rooms/{code}/start", json={"token": bo["seat_token"]}),
          409, "seats_empty")
    client.post(f"/api/rooms/{code}/join", json={"name": "Cy"})
    assert client.post(f"/api/rooms/{code}/start", json={"token": bo["seat_token"]}).is_success
    info = client.get(f"/api/rooms/{code}").json()
    assert info["status"] == "playing" and info["host_seat"] == 1
    error(client.post(f"/api/rooms/{code}/start", json={"token": host}), 409, "not_waiting")
    error(client.post(f"/api/rooms/{code}/leave", json={"seat_token": bo["seat_token"]}),
          409, "not_waiting")
    # Mid-game a kicked seat can be taken again.
    assert client.post(f"/api/rooms/{code}/kick", json={"token": host, "seat": 0}).is_success
    assert client.post(f"/api/rooms/{code}/join", json={"name": "Di"}).json()["seat"] == 0


def test_only_public_rooms_are_listed(client):
    hidden = create(client).json()["code"]
    listed = create(client, public=True).json()
    playing = create(client, public=True).json()
    for name in ("A", "B"):
        client.post(f"/api/rooms/{playing['code']}/join", json={"name": name})
    client.post(f"/api/rooms/{playing['code']}/start", json={"token": playing["host_token"]})
    rooms = client.get("/api/rooms").json()
    assert [r["code"] for r in rooms["open"]] == [listed["code"]]
    assert [r["code"] for r in rooms["live"]] == [playing["code"]]
    assert hidden not in str(rooms)
    assert hidden not in client.get("/").text and listed["code"] in client.get("/").text


def test_healthz(client):
    create(client)
    health = client.get("/healthz").json()
    assert health == {
        "status": "ok", "instance": health["instance"], "mode": "single", "database": "ok",
        "rooms": 1, "connections": 0, "rules_version": RULES_VERSION,
    }
    assert health["instance"].endswith("-8000")  # host name and port unless INSTANCE_ID


@pytest.fixture
def settings(make_settings):
    return make_settings(ROOM_CREATE_RATE=3)


def test_room_creation_is_rate_limited(client):
    for _ in range(3):
        assert create(client).status_code == 201
    error(create(client), 429, "rate_limited")

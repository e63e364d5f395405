"""The turn clock at the API: chosen at creation, changed by the host while waiting,
validated with a clear error; a refused change changes nothing."""

from __future__ import annotations


def test_the_clock_is_chosen_at_creation_and_changed_only_by_the_host_while_waiting(client):
    r = client.post("/api/rooms", json={"players": 2, "clock": {"turn": 60, "bank": 300}})
    assert r.status_code == 201
    code, host = r.json()["code"], r.json()["host_token"]
    assert client.get(f"/api/rooms/{code}").json()["options"]["clock"] == {"turn": 60, "bank": 300}
    for bad in ({"turn": 5, "bank": 0}, {"turn": 60, "bank": 99999}, {"turn": 60},
                {"turn": "60", "bank": 0}):
        r = client.post("/api/rooms", json={"players": 2, "clock": bad})
        assert r.status_code == 422 and r.json()["error"]["code"] == "malformed", bad
        r = client.post(f"/api/rooms/{code}/clock", json={"token": host, "clock": bad})
        assert r.status_code == 422, bad
    seat = client.post(f"/api/rooms/{code}/join", json={"name": "Ana"}).json()["seat_token"]
    bo = client.post(f"/api/rooms/{code}/join", json={"name": "Bo", "seat": 1}).json()
    r = client.post(f"/api/rooms/{code}/clock", json={"token": bo["seat_token"], "clock": None})
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
    r = client.post(f"/api/rooms/{code}/clock",
                    json={"token": seat, "clock": {"turn": 30, "bank": 120}})
    assert r.status_code == 200
    assert client.get(f"/api/rooms/{code}").json()["options"]["clock"] == {"turn": 30, "bank": 120}
    assert client.post(f"/api/rooms/{code}/clock", json={"token": host, "clock": None}).json()
    assert "clock" not in client.get(f"/api/rooms/{code}").json()["options"]
    client.post(f"/api/rooms/{code}/start", json={"token": host})
    r = client.post(f"/api/rooms/{code}/clock",
                    json={"token": host, "clock": {"turn": 30, "bank": 0}})
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_waiting"
    assert "clock" not in client.get(f"/api/rooms/{code}").json()

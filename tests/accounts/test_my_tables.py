"""The account's "My tables" (GET /api/me/tables, any device) says the time left, as the
README promises of the lobby's list (issue 41.17): the lobby showed it only for this
browser's own seats. On a real server."""

from __future__ import annotations

from .conftest import from_address


def test_my_tables_from_the_account_say_the_time_left(live_url: str) -> None:
    with from_address(live_url, "10.17.9.1") as me, from_address(live_url, "10.17.9.2") as bo:
        assert me.post("/api/accounts", json={"name": "Clocked Clara",
                                              "password": "correct horse"}).status_code == 201
        made = me.post("/api/rooms", json={"players": 2, "clock": {"turn": 60, "bank": 300}})
        code, host = made.json()["code"], made.json()["host_token"]
        assert me.post(f"/api/rooms/{code}/join", json={"name": "x"}).status_code == 200
        assert bo.post(f"/api/rooms/{code}/join", json={"name": "Bo"}).status_code == 200
        assert me.post(f"/api/rooms/{code}/start", json={"token": host}).status_code == 200
        (table,) = me.get("/api/me/tables").json()["tables"]
    assert table["names"] == ["Clocked Clara", "Bo"]
    assert 0 < table["left_ms"] <= 360_000

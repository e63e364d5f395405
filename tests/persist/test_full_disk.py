"""PostgreSQL goes away and the fallback file's disk fills, on a real server: a room
operation that cannot be made durable is refused with 503 `unavailable` and leaves no
trace; an action that cannot be is refused too; everything acknowledged is there after a
restart, and the game goes on (it is not "incompatible").

The fallback file lives on a real 64 KiB tmpfs (root only; skipped elsewhere)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from db.conftest import PG_URL, reset_postgres
from db.disk import fill, small_disk
from sqlalchemy.engine import make_url

from .live import Player, Server, Table, replay, seat_views
from .test_outage import ProxyThread, journal_rows

SEED, PLAYERS = 5, 2


@pytest.fixture
def db_proxy() -> Iterator[ProxyThread]:
    reset_postgres(PG_URL)
    u = make_url(PG_URL)
    p = ProxyThread(u.host or "127.0.0.1", u.port or 5432)
    p.run(p.proxy.open())
    yield p
    p.close()


def unavailable(response: httpx.Response) -> bool:
    return response.status_code == 503 and response.json()["error"]["code"] == "unavailable"


def act_or_refusal(player: Player, action: dict) -> str:
    """Send an action; 'ack' or the error code it got."""
    player.send_act(action)
    while True:
        frame = player.recv()
        if frame["type"] in ("ack", "error"):
            return "ack" if frame["type"] == "ack" else frame["code"]


def test_nothing_is_confirmed_that_a_full_disk_could_not_keep(
    db_proxy: ProxyThread, tmp_path: Path
) -> None:
    with small_disk(tmp_path / "disk") as disk:
        fallback = disk / "journal-fallback.jsonl"
        via_proxy = make_url(PG_URL).set(port=db_proxy.proxy.port).render_as_string(False)
        server = Server({
            "DATABASE_URL": via_proxy, "TEST_FIXED_SEED": str(SEED), "BOT_WORKERS": "0",
            "JOURNAL_FALLBACK_PATH": str(fallback), "DB_TIMEOUT": "1",
        }, log=tmp_path / "stderr.log")
        server.start()
        ballast: Path | None = None
        try:
            table = Table(server, PLAYERS, seed=9)
            table.play(4)
            api = table.api
            waiting = api.post("/api/rooms", json={"players": 2, "public": True}).json()
            assert api.post(f"/api/rooms/{waiting['code']}/join",
                            json={"name": "Early"}).is_success

            db_proxy.run(db_proxy.proxy.shut())
            table.play(2)  # acknowledged from the fallback file
            assert server.health()["status"] == "degraded"
            ballast = fill(disk, leave=0)

            # Actions: refused once the disk is full (the file's last page fills up first).
            refused = 0
            while refused < 3:
                seat, action = table.choose()
                answer = act_or_refusal(table.players[seat], action)
                if answer == "ack":
                    table.acked.append((seat, action))
                else:
                    assert answer == "unavailable"
                    refused += 1
                table.current()
            # Room operations (their lines are longer than an action's): refused, nothing
            # changed, no half-created room.
            assert unavailable(api.post("/api/rooms", json={"players": 3, "public": True}))
            assert [r["options"]["players"] for r in api.get("/api/rooms").json()["open"]] == [2]
            assert unavailable(api.post(f"/api/rooms/{waiting['code']}/join",
                                        json={"name": "Late"}))
            assert unavailable(api.post(f"/api/rooms/{waiting['code']}/bot",
                                        json={"token": waiting["host_token"], "seat": 1,
                                              "level": "greedy"}))
            seats = api.get(f"/api/rooms/{waiting['code']}").json()["seats"]
            assert [(s["name"], s["bot"]) for s in seats] == [("Early", None), (None, None)]

            os.unlink(ballast)
            ballast = None
            table.play(3)  # space again: acknowledged from the fallback file
            assert server.health()["status"] == "degraded"
            # One line when the disk became full and one when it recovered, no traceback.
            log = server.errors()
            assert "Traceback" not in log
            assert log.count("unwritable") == 1 and log.count("writable again") == 1, log
            server.kill()
            table.close()

            db_proxy.run(db_proxy.proxy.open())
            server.start()  # copies the fallback file in, then restores the rooms
            assert server.health()["status"] == "ok"
            assert not fallback.with_name(fallback.name + ".rejected").exists()
            code = table.code.replace("-", "")
            assert [(seat, action) for _, seat, action in journal_rows(code)] == table.acked
            info = httpx.get(f"{server.http}/api/rooms/{table.code}").json()
            assert info["status"] == "playing" and "notice" not in info
            table.connect(server)
            assert [p.game() for p in table.players] == seat_views(
                replay(SEED, PLAYERS, table.acked))
            table.play(2)
            table.close()
            seats = httpx.get(f"{server.http}/api/rooms/{waiting['code']}").json()["seats"]
            assert [(s["name"], s["bot"]) for s in seats] == [("Early", None), (None, None)]
        finally:
            if ballast is not None and ballast.exists():
                os.unlink(ballast)
            server.stop()

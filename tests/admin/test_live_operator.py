"""The operators' actions on a real server (uvicorn, real sockets, SQLite): a closed room's
sockets are told `closed` and the room is kept as abandoned; a disabled account's table
sockets are dropped (bye `disabled`) and its session ends; a muted account's chat is refused
`muted` at every table while the others talk on; the refusals show on the page."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text
from websockets.sync.client import ClientConnection, connect

from server import cli
from tests.serving import served

Server = tuple[str, Path]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    database = tmp_path_factory.mktemp("operators") / "coffee-rush.db"
    with served(database, BOT_WORKERS="0", FORWARDED_ALLOW_IPS="127.0.0.1") as url:
        yield url, database


def browser(url: str, address: str) -> httpx.Client:
    return httpx.Client(base_url=url, timeout=30,
                        headers={"x-forwarded-for": address, "origin": url})


def sign_up(url: str, name: str, address: str) -> httpx.Client:
    b = browser(url, address)
    assert b.post("/api/accounts", json={"name": name, "password": "correct horse"}
                  ).status_code == 201
    return b


def seated(sockets: contextlib.ExitStack, url: str, code: str,
           who: httpx.Client) -> ClientConnection:
    token = who.post(f"/api/rooms/{code}/join", json={"name": "x"}).json()["seat_token"]
    ws = sockets.enter_context(connect(url.replace("http", "ws", 1) + f"/ws/{code}",
                                       origin=url, open_timeout=10))  # type: ignore[arg-type]
    ws.send(json.dumps({"type": "hello", "token": token}))
    until(ws, "snapshot")
    return ws


def until(ws: ClientConnection, kind: str, **fields: Any) -> dict[str, Any]:
    """The next frame of type `kind` (with `fields`), skipping the others."""
    while True:
        frame = json.loads(ws.recv(timeout=10))
        if frame["type"] == kind and all(frame.get(k) == v for k, v in fields.items()):
            return frame


def stored_status(database: Path, code: str) -> str:
    engine = create_engine(f"sqlite:///{database}")
    with engine.connect() as conn:
        found = conn.scalar(text("SELECT status FROM rooms WHERE code = :c"),
                            {"c": code.replace("-", "")})
    engine.dispose()
    return str(found)


def test_close_disable_and_mute_reach_the_live_tables(server: Server) -> None:
    with contextlib.ExitStack() as sockets:
        played(sockets, *server)


def played(sockets: contextlib.ExitStack, url: str, database: Path) -> None:
    oona, pat, quinn = (sign_up(url, n, f"10.47.0.{i}")
                        for i, n in enumerate(("Oona", "Pat", "Quinn"), 1))
    assert cli.main(["users", "--database-url", f"sqlite+aiosqlite:///{database}",
                     "operator", "Oona"]) == 0
    act = lambda who, action: oona.post(  # noqa: E731
        "/api/admin/accounts", json={"who": who, "action": action})

    created = pat.post("/api/rooms", json={"players": 2}).json()
    code = created["code"]
    pat_ws, quinn_ws = seated(sockets, url, code, pat), seated(sockets, url, code, quinn)
    assert pat.post(f"/api/rooms/{code}/start", json={"token": created["host_token"]}
                    ).is_success

    # Muted: Pat's chat is refused at this table (and any other), Quinn's goes through.
    assert act("Pat", "mute").is_success
    pat_ws.send(json.dumps({"type": "chat", "id": 1, "text": "hello"}))
    assert until(pat_ws, "error", id=1)["code"] == "muted"
    quinn_ws.send(json.dumps({"type": "chat", "id": 2, "text": "hi Pat"}))
    assert until(quinn_ws, "ack", id=2)
    assert act("Pat", "unmute").is_success
    pat_ws.send(json.dumps({"type": "chat", "id": 3, "text": "thanks"}))
    assert until(pat_ws, "ack", id=3)

    # Disabled: Pat's socket is told so and closed; the session is over; Quinn stays.
    assert act("Pat", "disable").is_success
    assert until(pat_ws, "bye")["reason"] == "disabled"
    assert pat.get("/api/me").status_code == 401
    quinn_ws.send(json.dumps({"type": "ping"}))
    assert until(quinn_ws, "pong")

    # Closed: every socket is told `closed`, the room is gone here, kept as abandoned.
    closing = oona.post(f"/api/rooms/{code}/operator-close", json={})
    assert closing.json() == {"ok": True, "code": code}
    assert until(quinn_ws, "bye")["reason"] == "closed"
    assert pat.get(f"/api/rooms/{code}").status_code == 404
    assert stored_status(database, code) == "abandoned"
    assert oona.post(f"/api/rooms/{code}/operator-close", json={}).status_code == 404

    state = oona.get("/api/admin/state").json()
    refusals = state["instances"][0]["refusals"]
    assert any(r["code"] == "muted" and r["where"] == "socket" for r in refusals["recent"])
    assert [a["action"] for a in state["audit"]] == [
        "close_room", "disable", "unmute", "mute", "operator"]
    for client in (oona, pat, quinn):
        client.close()

"""The tournament page's socket, `/tournaments/{id}/socket`, attacked on a real server
(server/api/tournaments.py, server/api/page_socket.py): one address holds at most
WS_PER_ADDRESS of them; frames it should not send are refused, coded, and change nothing.
A client that never reads is tests/tournaments/test_page_socket.py's: on loopback the
kernel takes megabytes before a server's send waits."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest

from tests.serving import served
from tests.sockets import closed_with, socket_from

CAP = 2  # WS_PER_ADDRESS here


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, int, httpx.Client]]:
    """A server with one tournament (its organiser's client, to change it), starting in an
    hour: its URL, the tournament's id and the organiser's client."""
    with served(tmp_path / "db.sqlite", BOT_WORKERS="0", WS_PER_ADDRESS=str(CAP),
                WS_SEND_TIMEOUT="1", TOURNAMENT_RATE="100000", WS_MAX_FRAME="4096") as url, \
            httpx.Client(base_url=url, headers={"origin": url}, timeout=30) as org:
        made = org.post("/api/accounts", json={"name": "Orga", "password": "correct horse"})
        assert made.status_code == 201, made.text
        start = datetime.now(UTC) + timedelta(hours=1)
        r = org.post("/api/tournaments", json={"name": "Socket Cup",
                                              "starts_at": start.isoformat()})
        assert r.status_code == 201, r.text
        yield url, r.json()["id"], org


def path(tid: int) -> str:
    return f"/tournaments/{tid}/socket"


def state(ws) -> dict:  # type: ignore[no-untyped-def]
    frame = json.loads(ws.recv(timeout=10))
    assert frame["type"] == "tournament", frame
    return frame["tournament"]


def test_one_address_holds_at_most_its_cap_of_sockets(server) -> None:  # type: ignore[no-untyped-def]
    """WS_PER_ADDRESS sockets from one address are served; the next is refused, coded
    (error `too_many_sockets`, close 1013); another address has its own count; a closed
    socket gives its place back."""
    url, tid, _ = server
    with contextlib.ExitStack() as sockets:
        held = [socket_from(sockets, url, path(tid), "127.0.0.2") for _ in range(CAP)]
        for ws in held:
            assert state(ws)["name"] == "Socket Cup"
        refused = socket_from(sockets, url, path(tid), "127.0.0.2")
        frames, code, reason = closed_with(refused)
        assert [f["code"] for f in frames] == ["too_many_sockets"], frames
        assert (code, reason) == (1013, "too_many_sockets")
        elsewhere = socket_from(sockets, url, path(tid), "127.0.0.3")
        assert state(elsewhere)["id"] == tid
        held.pop().close()
        assert state_given_back(sockets, url, tid)["id"] == tid


def state_given_back(sockets: contextlib.ExitStack, url: str, tid: int) -> dict:
    """The first state on a socket from the address whose socket was just closed, once the
    server has let go of that one: it frees the place after handling the close, which the
    client's close does not wait for (under load the next socket came first: refused)."""
    for _ in range(100):
        frame = json.loads(socket_from(sockets, url, path(tid), "127.0.0.2").recv(timeout=10))
        if frame["type"] == "tournament":
            return frame["tournament"]
        assert frame["code"] == "too_many_sockets", frame
        time.sleep(0.05)
    raise AssertionError("the closed socket's place never came back")


@pytest.mark.parametrize("frame, refusal", [
    ("hello", (["malformed"], 1008, "malformed")),  # not JSON
    ('{"type": "hello", "token": null}', (["malformed"], 1008, "malformed")),  # a table's
    (b"\x00\x01", (["malformed"], 1008, "malformed")),  # binary
    ("x" * 5000, (["too_large", None], 1009, None)),  # past WS_MAX_FRAME: error, bye, close
    (None, ([], 1007, None)),  # a text frame that is not UTF-8
])
def test_a_frame_the_client_should_not_send_is_refused_and_changes_nothing(  # type: ignore[no-untyped-def]
        server, frame, refusal) -> None:
    url, tid, org = server
    before = org.get(f"/api/tournaments/{tid}").json()
    with contextlib.ExitStack() as sockets:
        ws = socket_from(sockets, url, path(tid), "127.0.0.6")
        assert state(ws)["id"] == tid
        if frame is None:
            ws.send(b"\xff\xfe", text=True)
        else:
            ws.send(frame)
        frames, code, reason = closed_with(ws)
        codes, close, why = refusal
        assert [f.get("code") for f in frames] == codes, frames
        assert code == close and why in (None, reason), (code, reason)
        assert org.get(f"/api/tournaments/{tid}").json() == before
        assert state(socket_from(sockets, url, path(tid), "127.0.0.6"))["id"] == tid

"""Hostile inputs against a real uvicorn process: what the in-process client cannot show."""

from __future__ import annotations

import contextlib
import json
import socket
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from tests.serving import served_process


def peak_rss(pid: int) -> int:
    """The process's high-water mark of resident memory, in bytes (VmHWM)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmHWM")


@pytest.fixture(scope="module")
def shared_server(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[str, int, Path]]:
    folder = tmp_path_factory.mktemp("boundary")
    log = folder / "server.log"
    with log.open("wb") as stderr, served_process(
        folder / "db.sqlite", stderr=stderr, ROOM_CREATE_RATE="2", WS_MAX_FRAME="16384",
    ) as (url, proc):
        yield url, proc.pid, log
    assert b"Traceback" not in log.read_bytes()  # nor at its shutdown


@pytest.fixture
def server(shared_server: tuple[str, int, Path]) -> Iterator[tuple[str, int, Path]]:
    """One server for the module (starting one is most of a test's time); no test may leave
    a traceback in its log."""
    log = shared_server[2]
    start = log.stat().st_size
    yield shared_server
    assert b"Traceback" not in log.read_bytes()[start:]


def client_at(address: str) -> httpx.Client:
    """An HTTP client whose connections come from `address` (any 127.x.y.z is this host): the
    per-address creation limit of the shared server counts each test's rooms apart."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=10)


def error_code(answer: bytes) -> str:
    """The coded error of a raw HTTP/1.1 answer whose body is one JSON document."""
    head, _, body = answer.partition(b"\r\n\r\n")
    assert b"chunked" not in head.lower(), head
    return json.loads(body)["error"]["code"]


def raw_post(url: str, path: str, head: dict[str, str], chunks: Iterator[bytes]) -> bytes:
    """POST over a plain socket, sending chunks until the server answers or hangs up."""
    parts = urlsplit(url)
    with socket.create_connection((parts.hostname, parts.port), timeout=10) as s:
        lines = [f"POST {path} HTTP/1.1", f"Host: {parts.netloc}",
                 "Content-Type: application/json", *(f"{k}: {v}" for k, v in head.items())]
        s.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        s.setblocking(False)
        answer = b""
        for chunk in chunks:
            with contextlib.suppress(BlockingIOError):
                answer += s.recv(65536)
            if answer:
                break
            try:
                s.sendall(chunk)
            except (BlockingIOError, BrokenPipeError, ConnectionResetError):
                break
        s.settimeout(10)
        while True:  # the refusal says "Connection: close": read to the end
            try:
                data = s.recv(65536)
            except ConnectionResetError:
                break
            if not data:
                break
            answer += data
        return answer


def not_a_view(ws) -> dict:
    """The next frame that is not a snapshot, a patch or a spectator's `watcher`."""
    while (frame := json.loads(ws.recv(timeout=5)))["type"] in ("snapshot", "patch", "watcher"):
        pass
    return frame


@pytest.mark.parametrize("path", ["/api/rooms", "/api/games/import"])
def test_a_300_mb_post_is_refused_without_being_read(server, path):
    url, pid, _ = server
    before = peak_rss(pid)
    mb = b" " * (1 << 20)
    answer = raw_post(url, path, {"Content-Length": str(300 << 20)}, iter([mb] * 300))
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert error_code(answer) == "too_large"
    chunk = b"100000\r\n" + mb + b"\r\n"  # chunked: no length announced, counted as it comes
    answer = raw_post(url, path, {"Transfer-Encoding": "chunked"}, iter([chunk] * 300))
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert peak_rss(pid) - before < 16 << 20  # far less than what was sent


def test_a_frame_far_over_the_cap_gets_error_and_bye_then_1009(server):
    url, _, _ = server
    with client_at("127.0.0.2") as http:
        r = http.post(f"{url}/api/rooms", json={"players": 2})
    code = r.json()["code"]
    with connect(f"ws{url[4:]}/ws/{code}", open_timeout=5) as ws:
        ws.send(json.dumps({"type": "hello"}))
        assert json.loads(ws.recv(timeout=5))["type"] == "snapshot"
        ws.send("x" * (1 << 20))  # 64 times the cap
        assert not_a_view(ws)["code"] == "too_large"
        assert not_a_view(ws) == {"type": "bye", "reason": "too_large"}
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


def test_a_foreign_origin_gets_403_at_the_upgrade(server):
    url, _, _ = server
    with client_at("127.0.0.3") as http:
        r = http.post(f"{url}/api/rooms", json={"players": 2})
    code = r.json()["code"]
    with pytest.raises(InvalidStatus) as refused:
        connect(f"ws{url[4:]}/ws/{code}", origin="https://evil.example", open_timeout=5)
    assert refused.value.response.status_code == 403


def test_a_spoofed_forwarded_for_does_not_reset_the_creation_limit(server):
    url, _, _ = server
    with client_at("127.0.0.4") as http:
        answers = [http.post(f"{url}/api/rooms", json={"players": 2},
                             headers={"X-Forwarded-For": f"10.0.0.{i}"}).status_code
                   for i in range(3)]
    assert answers == [201, 201, 429]


def test_forwarded_for_is_trusted_from_configured_proxies(tmp_path):
    with served_process(tmp_path / "db.sqlite", ROOM_CREATE_RATE="2",
                        FORWARDED_ALLOW_IPS="127.0.0.1") as (url, _):
        def create(client: str) -> int:
            return httpx.post(f"{url}/api/rooms", json={"players": 2},
                              headers={"X-Forwarded-For": client}).status_code

        assert [create(f"10.0.0.{i}") for i in range(3)] == [201, 201, 201]
        assert [create("10.0.0.9") for _ in range(3)] == [201, 201, 429]



def test_head_is_answered_as_get_and_405_says_what_is_allowed(server):
    """Issue 25.13: HEAD / was 405, and no 405 carried `Allow` (the error handler dropped
    the exception's headers)."""
    url, _, _ = server
    with httpx.Client(timeout=10) as client:
        get = client.get(f"{url}/")
        head = client.head(f"{url}/")
        assert head.status_code == 200 and head.content == b""
        assert head.headers["content-length"] == get.headers["content-length"]
        assert head.headers["content-security-policy"]
        for method, path, allowed in (("POST", "/", {"GET", "HEAD"}),
                                      ("DELETE", "/api/rooms", {"GET", "HEAD", "POST"}),
                                      ("GET", "/api/rooms/ABCD-EFGH/join", {"POST"})):
            r = client.request(method, f"{url}{path}", headers={"content-type": "application/json"})
            assert r.status_code == 405 and r.json()["error"]["code"] == "method_not_allowed"
            assert set(r.headers["allow"].split(", ")) == allowed, (path, r.headers)

"""HTTP over raw sockets against a real server (tests/serving.py), for what a well-behaved
client never sends: heads and bodies that trickle or stop, from an address of the test's
choosing (any 127.x.y.z is this host, so per-address limits count each test apart)."""

from __future__ import annotations

import contextlib
import json
import socket
from urllib.parse import urlsplit

import httpx


def connect(url: str, address: str) -> socket.socket:
    parts = urlsplit(url)
    s = socket.create_connection((parts.hostname, parts.port), timeout=10,
                                 source_address=(address, 0))
    return s


def head(url: str, method: str, path: str, **headers: str) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", f"Host: {urlsplit(url).netloc}",
             *(f"{k.replace('_', '-')}: {v}" for k, v in headers.items())]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def read_answer(s: socket.socket, timeout: float = 10) -> bytes:
    """Everything the server sends until it hangs up (b"" if it hung up at once)."""
    s.settimeout(timeout)
    answer = b""
    with contextlib.suppress(ConnectionResetError):
        while data := s.recv(65536):
            answer += data
    return answer


def status_and_code(answer: bytes) -> tuple[int, str]:
    top, _, body = answer.partition(b"\r\n\r\n")
    return int(top.split(b" ", 2)[1]), json.loads(body)["error"]["code"]


def client_at(address: str) -> httpx.Client:
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=10)

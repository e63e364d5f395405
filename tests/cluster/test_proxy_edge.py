"""The front door (HAProxy from deploy/haproxy.cfg) at the HTTP edge: what it does with
requests an instance never answers (issue 41.16), and with slowloris clients (41.3), whom
the instances behind it cannot tell apart.

A SIGSTOPped instance's kernel still accepts connections and takes requests; nothing comes
back. Until the health checks take it out (~3 s), requests sent there, and those already in
flight, got 502 (or waited for good). The shipped HAProxy config retries on the other
instance what the frozen one never answered, for reads only (GET, HEAD): a POST it never
answered may still have been done, so it is not sent twice.

It can retry only what it has not begun to forward: an instance that froze after writing an
answer's head and before its body cut the read after its head (the player's page or fetch
failed, "peer closed connection without sending complete message body"). Each answer's head
now goes out with its body, in one write (server/ws/headwrite.py), so every read here is
answered whole, by one instance or the other."""

from __future__ import annotations

import contextlib
import signal
import socket
import threading
import time
from collections import Counter

import httpx

from .harness import Cluster

READERS = 4


def rooms_on(c: Cluster, name: str, count: int) -> list[str]:
    """Codes of new rooms the proxy routes to instance `name`."""
    codes: list[str] = []
    for _ in range(60):
        code = httpx.post(f"{c.proxy_url}/api/rooms", json={"players": 2},
                          timeout=10).json()["code"]
        if c.route(f"/api/rooms/{code}")[0].name == name:
            codes.append(code)
            if len(codes) == count:
                return codes
    raise AssertionError(f"fewer than {count} rooms landed on {name}")


def read_through(c: Cluster, paths: list[str], stop: threading.Event,
                 answers: Counter[str]) -> None:
    """GET each path in turn until `stop`; counts each answer's status (or the failure),
    and apart those that took a retry's wait (the proxy gives a read 3 s)."""
    with httpx.Client(base_url=c.proxy_url, timeout=15) as client:
        while not stop.is_set():
            for path in paths:
                try:
                    answer = client.get(path)
                    answers[str(answer.status_code)] += 1
                    if answer.elapsed.total_seconds() >= 3:
                        answers["waited for a retry"] += 1
                except httpx.HTTPError as e:  # with its message: which failure it was
                    answers[f"{type(e).__name__}: {e}"] += 1


def test_reads_sent_to_a_frozen_instance_are_answered_by_the_other(cluster) -> None:
    c: Cluster = cluster(2)
    code = rooms_on(c, "i1", 1)[0]
    paths = [f"/api/rooms/{code}", "/api/rooms", "/healthz", "/rules"]
    stop = threading.Event()
    answers: Counter[str] = Counter()
    readers = [threading.Thread(target=read_through, args=(c, paths, stop, answers))
               for _ in range(READERS)]
    joined: list[int | str] = []

    def join() -> None:
        try:
            joined.append(httpx.post(f"{c.proxy_url}/api/rooms/{code}/join",
                                     json={"name": "Ana"}, timeout=15).status_code)
        except httpx.HTTPError as e:
            joined.append(type(e).__name__)

    for reader in readers:
        reader.start()
    try:
        time.sleep(0.5)  # reads going on: some are in flight to i1 when it freezes
        c.kill("i1", signal.SIGSTOP)
        joiner = threading.Thread(target=join)  # a write i1 takes and never answers
        joiner.start()
        time.sleep(6)  # past the health checks' verdict (~3 s)
        joiner.join(timeout=30)
        seats = httpx.get(f"{c.proxy_url}/api/rooms/{code}", timeout=15).json()["seats"]
    finally:
        stop.set()
        for reader in readers:
            reader.join(timeout=30)
        c.kill("i1", signal.SIGCONT)
    assert set(answers) <= {"200", "waited for a retry"}, answers
    # The write was not sent again to i2: it failed, and the seat it asked for is free.
    assert joined != [200] and [s["name"] for s in seats] == [None, None], (joined, seats)


def held_answer(port: int, address: str) -> bytes:
    """A connection from `address` that starts a head and never ends it: what it gets (b""
    when it is closed or reset, even while connecting)."""
    answer = b""
    with contextlib.suppress(ConnectionResetError, BrokenPipeError), socket.create_connection(
            ("127.0.0.1", port), timeout=30, source_address=(address, 0)) as s:
        s.sendall(b"GET / HTTP/1.1\r\n")
        while data := s.recv(4096):
            answer += data
    return answer


def test_one_address_holds_at_most_its_share_of_the_proxys_connections(cluster) -> None:
    """Behind the proxy every client has the proxy's address, so the proxy caps each one
    (PER_ADDRESS, 6 here): of 20 dripping heads from one address, 6 wait for
    `timeout http-request` (408), the rest are closed at once; another address is served."""
    c: Cluster = cluster(1, per_address=6)
    answers: list[bytes] = []
    drips = [threading.Thread(target=lambda: answers.append(held_answer(c.proxy_port,
                                                                        "127.0.0.5")))
             for _ in range(20)]
    for drip in drips:
        drip.start()
    with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.6"),
                      timeout=10) as other:
        assert other.get(f"{c.proxy_url}/healthz").status_code == 200
    for drip in drips:
        drip.join(timeout=60)
    assert sorted(a.split(b"\r\n")[0] for a in answers) == [b""] * 14 + [
        b"HTTP/1.1 408 Request Time-out"] * 6

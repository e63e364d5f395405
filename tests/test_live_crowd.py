"""One client must not hold the server (issue 25): many parallel large bodies share one
budget and the memory comes back after them; silent sockets are closed and each address
may hold only so many. A real server process, real sockets, its RSS read from /proc."""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

from tests.serving import served_process

MB = 1 << 20


def rss(pid: int) -> int:
    """The process's resident memory now, in bytes (VmRSS)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def settled_rss(pid: int, seconds: float = 3.0) -> int:
    """The lowest RSS seen over a few seconds (the server finishes what it was doing)."""
    low = rss(pid)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        time.sleep(0.2)
        low = min(low, rss(pid))
    return low


def test_parallel_large_bodies_share_one_budget_and_memory_comes_back(tmp_path):
    """60 parallel imports of 1.9 MB with a budget of 8 MB: those past it get 503 `busy`
    (coded, unread), the rest are answered as usual, and afterwards the server's resident
    memory is back near where it was (before: every body read at once, memory kept)."""
    body = json.dumps({"format": "coffee-rush-game", "pad": "x" * (1_900_000)}).encode()
    with served_process(tmp_path / "db.sqlite", HTTP_BODY_BUDGET="8000000") as (url, proc):
        with httpx.Client(timeout=30) as client:  # warm up: the import path's own modules
            client.post(f"{url}/api/games/import", content=body,
                        headers={"content-type": "application/json"})
        before = settled_rss(proc.pid, 1.0)

        def post(_: int) -> tuple[int, str]:
            with httpx.Client(timeout=60) as client:
                r = client.post(f"{url}/api/games/import", content=body,
                                headers={"content-type": "application/json"})
                return r.status_code, r.json()["error"]["code"]

        for _ in range(3):
            with ThreadPoolExecutor(60) as pool:
                answers = list(pool.map(post, range(60)))
        busy = [a for a in answers if a[0] == 503]
        assert busy and all(code == "busy" for _, code in busy), answers
        assert len(busy) < len(answers), answers  # the budget lets some through
        assert all(status in (422, 503) for status, _ in answers), answers
        after = settled_rss(proc.pid)
        assert after - before < 48 * MB, (before // MB, after // MB)

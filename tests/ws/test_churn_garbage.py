"""Sockets that come and go leave no reference cycle behind (issue 25.12): whatever a socket
did, its objects go when it does, not at the collector's next full pass, whose stall grows
with the heap (server/memory.py). A real server, real sockets; the server counts its cycles
with gc.DEBUG_SAVEALL (tests/ws/garbage_server.py)."""

from __future__ import annotations

import asyncio
import json
import signal
import time
from pathlib import Path

import httpx
import pytest
import websockets

from tests.serving import free_port, launch, stop, wait_ready

UNMASKED = b"\x81\x02hi"  # a client frame must be masked: protocol error, close 1002
HALF_A_FRAME = b"\x81\xfe\x10\x00abcd" + b"x" * 100  # 4 KiB announced, then a hang-up
NOT_UTF8 = b"\x81\x82abcd" + bytes(a ^ b for a, b in zip(b"\xff\xfe", b"ab", strict=True))


async def churn(url: str, code: str, token: str) -> None:
    ws_url = f"{url.replace('http', 'ws')}/ws/{code}"

    async def one(kind: str) -> None:
        async with websockets.connect(ws_url, origin=url) as ws:  # type: ignore[arg-type]
            if kind == "player":
                await ws.send(json.dumps({"type": "hello", "token": token}))
                await ws.recv()
                return
            if kind == "too_large":
                await ws.send("x" * 200_000)
            elif kind == "spectator_gone":
                await ws.send(json.dumps({"type": "hello", "token": None}))
                await ws.recv()
                ws.transport.abort()
                return
            else:
                ws.transport.write({"unmasked": UNMASKED, "half_a_frame": HALF_A_FRAME,
                                    "not_utf8": NOT_UTF8}[kind])
                if kind == "half_a_frame":
                    await asyncio.sleep(0.05)
                    ws.transport.abort()
                    return
            with pytest.raises(websockets.ConnectionClosed):
                while True:
                    await asyncio.wait_for(ws.recv(), 5)

    kinds = ["player", "too_large", "spectator_gone", "unmasked", "half_a_frame", "not_utf8"]
    for _ in range(5):
        await asyncio.gather(*(one(kind) for kind in kinds))


def garbage(proc, path: Path) -> dict:
    path.unlink(missing_ok=True)
    proc.send_signal(signal.SIGUSR1)
    for _ in range(100):
        if path.exists():
            return json.loads(path.read_text())
        time.sleep(0.05)
    raise AssertionError("the server did not count its garbage")


def test_churned_sockets_leave_no_cycle(tmp_path: Path) -> None:
    port, counted = free_port(), tmp_path / "garbage.json"
    database = tmp_path / "db.sqlite"
    proc = launch({"PORT": str(port), "DATABASE_URL": f"sqlite+aiosqlite:///{database}",
                   "JOURNAL_FALLBACK_PATH": f"{database}.fallback.jsonl",
                   "GARBAGE_FILE": str(counted)}, module="tests.ws.garbage_server")
    url = f"http://127.0.0.1:{port}"
    try:
        wait_ready(proc, url)
        headers = {"origin": url}
        code = httpx.post(f"{url}/api/rooms", json={"players": 2}, headers=headers).json()["code"]
        token = httpx.post(f"{url}/api/rooms/{code}/join", json={"name": "Ann"},
                           headers=headers).json()["seat_token"]
        garbage(proc, counted)  # what start-up left, freed
        asyncio.run(churn(url, code, token))
        time.sleep(0.5)  # the server sees the last hang-ups
        assert garbage(proc, counted) == {"objects": 0, "kinds": {}}
    finally:
        stop(proc)

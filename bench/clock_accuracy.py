"""How late does a turn time out? A real server (`python -m server`, SQLite), N rooms with
a 10 s turn clock and no bank, nobody acting. For each room the first timeout is measured
against the deadline the server announced (the clock's `at` + time left):

- server lateness: the `at` of the version that carries the timeout, minus the deadline
  (how late ClockKeeper fired, on the server's own clock);
- seen lateness: when the client received that version, minus the deadline (adds the
  delivery). Server and client are on one machine, so both read the same CLOCK_MONOTONIC.

    .venv/bin/python bench/clock_accuracy.py --rooms 20
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.serving import served  # noqa: E402


def setup_room(base: str) -> tuple[str, str, str]:
    r = httpx.post(f"{base}/api/rooms", json={"players": 2, "clock": {"turn": 10, "bank": 0}})
    code, host = r.json()["code"], r.json()["host_token"]
    token = httpx.post(f"{base}/api/rooms/{code}/join", json={"name": "Ana"}).json()["seat_token"]
    httpx.post(f"{base}/api/rooms/{code}/join", json={"name": "Bo"})
    return code, token, host


async def watch(base: str, code: str, token: str, start: asyncio.Event) -> tuple[float, float]:
    """(server lateness, seen lateness) of the room's first timeout, in ms."""
    url = base.replace("http", "ws") + f"/ws/{code}"
    async with websockets.connect(url) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        await start.wait()
        deadline = None
        room: dict = {}
        while True:
            frame = json.loads(await ws.recv())
            received = time.monotonic() * 1000
            if frame["type"] == "snapshot":
                room = frame["view"]["room"]
            elif frame["type"] == "patch":
                for op in frame["ops"]:
                    if op["path"] == "/room/clock" or op["path"].startswith("/room/clock/"):
                        room = apply_clock(room, op)
                if any(e["type"] == "timeout" for e in frame["events"]):
                    assert deadline is not None
                    return room["clock"]["at"] - deadline, received - deadline
            clock = room.get("clock")
            if clock and clock["running"]:
                deadline = clock["at"] + clock["turn_ms"] + clock["bank_ms"][clock["seat"]]


def apply_clock(room: dict, op: dict) -> dict:
    parts = op["path"].split("/")[2:]
    if len(parts) == 1:
        return {**room, "clock": op.get("value")}
    clock = json.loads(json.dumps(room.get("clock") or {}))
    target = clock
    for key in parts[1:-1]:
        target = target[int(key) if isinstance(target, list) else key]
    last = parts[-1]
    if isinstance(target, list):
        target[int(last)] = op["value"]
    else:
        target[last] = op["value"]
    return {**room, "clock": clock}


async def run(base: str, rooms: int) -> None:
    tables = [setup_room(base) for _ in range(rooms)]
    start = asyncio.Event()
    tasks = [asyncio.create_task(watch(base, code, token, start)) for code, token, _ in tables]
    await asyncio.sleep(0.5)
    start.set()
    async with httpx.AsyncClient() as client:
        for code, _, host in tables:
            await client.post(f"{base}/api/rooms/{code}/start", json={"token": host})
    results = await asyncio.gather(*tasks)
    server = sorted(r[0] for r in results)
    seen = sorted(r[1] for r in results)
    for name, values in (("server lateness", server), ("seen lateness", seen)):
        p95 = values[min(len(values) - 1, int(0.95 * len(values)))]
        print(f"{name:16s} ms: min {values[0]:7.1f}  median {statistics.median(values):7.1f}"
              f"  p95 {p95:7.1f}  max {values[-1]:7.1f}  (n={len(values)})")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rooms", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, served(Path(tmp) / "bench.db",
                                                      ROOM_CREATE_RATE="100000") as base:
        asyncio.run(run(base, args.rooms))


if __name__ == "__main__":
    main()

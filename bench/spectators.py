"""Spectator ramp: N spectators enter one playing room; what does it cost everyone?

    .venv/bin/python bench/spectators.py --spectators 2000
    .venv/bin/python bench/spectators.py --root /path/to/another/checkout   # before/after

Prints the time until every spectator has its snapshot, the frames all sockets received
(players and spectators), the slowest /healthz answer during the ramp and the server's RSS.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.soak import rss  # noqa: E402
from tests.serving import free_port  # noqa: E402


class Counter:
    def __init__(self) -> None:
        self.frames = 0
        self.last = time.monotonic()


async def reader(ws: websockets.ClientConnection, counter: Counter) -> None:
    try:
        async for _ in ws:
            counter.frames += 1
            counter.last = time.monotonic()
    except websockets.ConnectionClosed:
        pass


async def spectator(
    url: str, counter: Counter, tasks: list[asyncio.Task]
) -> websockets.ClientConnection:
    ws = await websockets.connect(url, max_size=None, open_timeout=60, ping_interval=None)
    await ws.send(json.dumps({"type": "hello"}))
    first = json.loads(await ws.recv())
    assert first["type"] == "snapshot", first
    counter.frames += 1
    tasks.append(asyncio.create_task(reader(ws, counter)))
    return ws


async def ramp(base: str, n: int, batch: int) -> dict[str, float]:
    async with httpx.AsyncClient(base_url=base, timeout=60) as api:
        room = (await api.post("/api/rooms", json={"players": 2})).json()
        code = room["code"]
        tokens = [(await api.post(f"/api/rooms/{code}/join", json={"name": f"P{i}"})).json()
                  ["seat_token"] for i in range(2)]
        url = f"ws{base[4:]}/ws/{code}"
        counter, tasks = Counter(), []
        players = []
        for token in tokens:
            ws = await websockets.connect(url, max_size=None, ping_interval=None)
            await ws.send(json.dumps({"type": "hello", "token": token}))
            players.append(ws)
            tasks.append(asyncio.create_task(reader(ws, counter)))
        await api.post(f"/api/rooms/{code}/start", json={"token": room["host_token"]})
        await asyncio.sleep(0.5)
        counter.frames = 0
        slowest = 0.0
        done = asyncio.Event()

        async def probe() -> None:
            nonlocal slowest
            while not done.is_set():
                t0 = time.perf_counter()
                await api.get("/healthz")
                slowest = max(slowest, time.perf_counter() - t0)
                await asyncio.sleep(0.1)

        prober = asyncio.create_task(probe())
        start = time.perf_counter()
        sockets = []
        for i in range(0, n, batch):
            size = min(batch, n - i)
            sockets += await asyncio.gather(*(spectator(url, counter, tasks) for _ in range(size)))
        entered = time.perf_counter() - start
        while time.monotonic() - counter.last < 2.0:  # until the frames stop (2 s quiet)
            await asyncio.sleep(0.2)
        settled = counter.last - (time.monotonic() - (time.perf_counter() - start))
        done.set()
        await prober
        for ws in [*sockets, *players]:
            await ws.close()
        for task in tasks:
            task.cancel()
        return {"entered_s": entered, "settled_s": settled, "frames": counter.frames,
                "healthz_max_s": slowest}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spectators", type=int, default=2000)
    parser.add_argument("--batch", type=int, default=50, help="spectators connecting at once")
    parser.add_argument("--root", type=Path, default=ROOT, help="checkout whose server runs")
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as data:
        env = dict(os.environ, HOST="127.0.0.1", PORT=str(port), LOG_LEVEL="warning",
                   WS_FLOOD_MESSAGES=str(10**9), ROOM_CREATE_RATE=str(10**9),
                   MAX_SPECTATORS=str(10**6), BOT_WORKERS="0", WS_PER_ADDRESS=str(10**9),
                   HTTP_PER_ADDRESS=str(10**9),
                   DATABASE_URL=f"sqlite+aiosqlite:///{data}/bench.db",
                   JOURNAL_FALLBACK_PATH=f"{data}/fallback.jsonl")
        proc = subprocess.Popen([sys.executable, "-m", "server"], cwd=args.root, env=env)
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(300):
                try:
                    if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            before = rss(proc.pid)
            figures = asyncio.run(ramp(base, args.spectators, args.batch))
            after = rss(proc.pid)
        finally:
            proc.terminate()
            proc.wait(10)
    print(f"server: {args.root}")
    print(f"spectators entering one playing room: {args.spectators} (batches of {args.batch})")
    print(f"  all snapshots received after   {figures['entered_s']:8.2f} s")
    print(f"  last frame received after      {figures['settled_s']:8.2f} s")
    print(f"  frames received, all sockets   {figures['frames']:8d}")
    print(f"  slowest /healthz during ramp   {figures['healthz_max_s'] * 1000:8.0f} ms")
    print(f"  server RSS before / after      {before / 2**20:8.1f} / {after / 2**20:.1f} MiB")


if __name__ == "__main__":
    main()

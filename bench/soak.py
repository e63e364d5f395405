"""Memory soak: open and close many real websockets; does the server give the memory back?

    .venv/bin/python bench/soak.py --connections 30000
    .venv/bin/python bench/soak.py --root /path/to/another/checkout   # before/after

Each connection says hello to one of a few rooms (half as spectators, half as players
reconnecting), reads its snapshot and closes. Prints the server's RSS at the start, after a
warm-up, after the churn, and after a few idle seconds.
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


def rss(pid: int) -> int:
    """Resident memory of a process, in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS")


async def tables(base: str, rooms: int) -> list[tuple[str, list[str]]]:
    """Playing rooms of two seats: (code, seat tokens)."""
    out = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as api:
        for _ in range(rooms):
            room = (await api.post("/api/rooms", json={"players": 2})).json()
            code = room["code"]
            tokens = [(await api.post(f"/api/rooms/{code}/join", json={"name": f"P{i}"})).json()
                      ["seat_token"] for i in range(2)]
            await api.post(f"/api/rooms/{code}/start", json={"token": room["host_token"]})
            out.append((code, tokens))
    return out


async def visit(ws_base: str, code: str, token: str | None) -> None:
    async with websockets.connect(f"{ws_base}/ws/{code}", max_size=None,
                                  ping_interval=None, open_timeout=30) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        while json.loads(await ws.recv())["type"] != "snapshot":
            pass


async def churn(base: str, rooms: list[tuple[str, list[str]]], n: int, parallel: int) -> None:
    ws_base = f"ws{base[4:]}"
    jobs = iter(range(n))

    async def worker() -> None:
        for i in jobs:
            code, tokens = rooms[i % len(rooms)]
            token = None if i % 2 else tokens[(i // 2) % 2]
            await visit(ws_base, code, token)

    await asyncio.gather(*(worker() for _ in range(parallel)))


def start(root: Path, data: str, port: int, extra: dict[str, str]) -> subprocess.Popen:
    env = dict(os.environ, HOST="127.0.0.1", PORT=str(port), LOG_LEVEL="warning",
               WS_FLOOD_MESSAGES=str(10**9), ROOM_CREATE_RATE=str(10**9), BOT_WORKERS="0",
               WS_PER_ADDRESS=str(10**9),
               PRESENCE_INTERVAL="0", DATABASE_URL=f"sqlite+aiosqlite:///{data}/soak.db",
               JOURNAL_FALLBACK_PATH=f"{data}/fallback.jsonl", **extra)
    proc = subprocess.Popen([sys.executable, "-m", "server"], cwd=root, env=env)
    for _ in range(300):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("server did not start")


def soak(root: Path, connections: int, warmup: int, rooms: int, parallel: int,
         idle: float, extra: dict[str, str] | None = None, rounds: int = 1) -> dict[str, int]:
    """RSS figures (bytes) of one server run: start, warm, churned (after `rounds` churns of
    `connections` each; with several, also churned1, churned2, ... after each), idle."""
    from tests.serving import free_port

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as data:
        proc = start(root, data, port, extra or {})
        try:
            figures = {"start": rss(proc.pid)}
            rooms_ = asyncio.run(tables(base, rooms))
            asyncio.run(churn(base, rooms_, warmup, parallel))
            figures["warm"] = rss(proc.pid)
            for n in range(1, rounds + 1):
                asyncio.run(churn(base, rooms_, connections, parallel))
                figures["churned" if n == rounds else f"churned{n}"] = rss(proc.pid)
            time.sleep(idle)
            figures["idle"] = rss(proc.pid)
            return figures
        finally:
            proc.terminate()
            proc.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=30000)
    parser.add_argument("--warmup", type=int, default=1000)
    parser.add_argument("--rooms", type=int, default=20)
    parser.add_argument("--parallel", type=int, default=50)
    parser.add_argument("--idle", type=float, default=5.0)
    parser.add_argument("--root", type=Path, default=ROOT, help="checkout whose server runs")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    t0 = time.perf_counter()
    f = soak(args.root, args.connections, args.warmup, args.rooms, args.parallel, args.idle)
    mib = {k: v / 2**20 for k, v in f.items()}
    print(f"server: {args.root}")
    print(f"websockets opened and closed: {args.connections} (+{args.warmup} warm-up), "
          f"{args.parallel} at a time, {args.rooms} rooms, {time.perf_counter() - t0:.0f} s")
    print(f"  RSS at start                {mib['start']:8.1f} MiB")
    print(f"  RSS after warm-up           {mib['warm']:8.1f} MiB")
    print(f"  RSS after the churn         {mib['churned']:8.1f} MiB "
          f"({mib['churned'] - mib['warm']:+.1f} since warm-up)")
    print(f"  RSS after {args.idle:.0f} s idle           {mib['idle']:8.1f} MiB "
          f"({mib['idle'] - mib['warm']:+.1f} since warm-up)")


if __name__ == "__main__":
    main()

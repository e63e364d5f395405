"""Memory soak: open and close many real websockets; does the server give the memory back?

    .venv/bin/python bench/soak.py --connections 30000
    .venv/bin/python bench/soak.py --root /path/to/another/checkout   # before/after

Each connection says hello to one of a few rooms (half as spectators, half as players
reconnecting), reads its snapshot and closes. With --hostile, every other connection is
refused instead: a frame over the size cap, an unmasked frame, a frame cut off by a hang-up,
or text that is not UTF-8 (each once left a reference cycle only a full collection freed).
Prints the server's RSS at the start, after a warm-up, after the churn, and after a few
idle seconds, and the collector's full passes (from /metrics) with their total pause.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
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


HOSTILE = (
    b"\x81\xff" + (1 << 40).to_bytes(8, "big") + b"abcd",  # a frame far over the cap
    b"\x81\x02hi",  # unmasked: a client's frames must be masked
    b"\x81\xfe\x10\x00abcd" + b"x" * 100,  # 4 KiB announced, 100 bytes sent, then a hang-up
    b"\x81\x82abcd" + bytes(a ^ b for a, b in zip(b"\xff\xfe", b"ab", strict=True)),  # bad UTF-8
)


async def refused(ws_base: str, code: str, frame: bytes) -> None:
    """A connection that sends one bad frame and waits for the close (or hangs up)."""
    async with websockets.connect(f"{ws_base}/ws/{code}", ping_interval=None,
                                  open_timeout=30) as ws:
        ws.transport.write(frame)
        if frame is HOSTILE[2]:
            await asyncio.sleep(0.01)
            ws.transport.abort()
            return
        try:
            while True:
                await asyncio.wait_for(ws.recv(), 10)
        except websockets.ConnectionClosed:
            pass


async def churn(base: str, rooms: list[tuple[str, list[str]]], n: int, parallel: int,
                hostile: bool = False) -> None:
    ws_base = f"ws{base[4:]}"
    jobs = iter(range(n))

    async def worker() -> None:
        for i in jobs:
            code, tokens = rooms[i % len(rooms)]
            if hostile and i % 2:
                await refused(ws_base, code, HOSTILE[(i // 2) % len(HOSTILE)])
                continue
            token = None if i % 4 in (1, 2) else tokens[(i // 2) % 2]
            await visit(ws_base, code, token)

    await asyncio.gather(*(worker() for _ in range(parallel)))


def start(root: Path, data: str, port: int, extra: dict[str, str]) -> subprocess.Popen:
    env = dict(os.environ, HOST="127.0.0.1", PORT=str(port), LOG_LEVEL="warning",
               WS_FLOOD_MESSAGES=str(10**9), ROOM_CREATE_RATE=str(10**9), BOT_WORKERS="0",
               WS_PER_ADDRESS=str(10**9), HTTP_PER_ADDRESS=str(10**9),
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


GEN2 = re.compile(
    r'^coffee_rush_gc_pause_seconds_(count|bucket)\{generation="2"(?:,le="0\.05")?\} (\S+)$',
    re.M)


def old_passes(metrics: str) -> dict[str, float]:
    """The collector's passes over the old generation so far (gc2), and how many of them
    stood the loop still for more than 50 ms (gc2_slow: the full ones, over the heap)."""
    found = dict(GEN2.findall(httpx.get(metrics, timeout=10).text))
    count = float(found.get("count", 0))
    return {"gc2": count, "gc2_slow": count - float(found.get("bucket", 0))}


def soak(root: Path, connections: int, warmup: int, rooms: int, parallel: int,
         idle: float, extra: dict[str, str] | None = None, rounds: int = 1,
         hostile: bool = False) -> dict[str, float]:
    """RSS figures (bytes) of one server run: start, warm, churned (after `rounds` churns of
    `connections` each; with several, also churned1, churned2, ... after each), idle; and
    the old generation's collections during the churn (gc2, gc2_slow)."""
    from tests.serving import free_port

    port, metrics_port = free_port(), free_port()
    base = f"http://127.0.0.1:{port}"
    metrics = f"http://127.0.0.1:{metrics_port}/metrics"
    with tempfile.TemporaryDirectory() as data:
        proc = start(root, data, port, {"METRICS_PORT": str(metrics_port), **(extra or {})})
        try:
            figures: dict[str, float] = {"start": rss(proc.pid)}
            rooms_ = asyncio.run(tables(base, rooms))
            asyncio.run(churn(base, rooms_, warmup, parallel, hostile))
            figures["warm"] = rss(proc.pid)
            before = old_passes(metrics)
            for n in range(1, rounds + 1):
                asyncio.run(churn(base, rooms_, connections, parallel, hostile))
                figures["churned" if n == rounds else f"churned{n}"] = rss(proc.pid)
            time.sleep(idle)
            figures["idle"] = rss(proc.pid)
            after = old_passes(metrics)
            figures.update({k: after.get(k, 0.0) - before.get(k, 0.0) for k in after})
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
    parser.add_argument("--rounds", type=int, default=1, help="churns of --connections each")
    parser.add_argument("--hostile", action="store_true",
                        help="every other connection sends a frame the server refuses")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    t0 = time.perf_counter()
    f = soak(args.root, args.connections, args.warmup, args.rooms, args.parallel, args.idle,
             rounds=args.rounds, hostile=args.hostile)
    mib = {k: v / 2**20 for k, v in f.items() if not k.startswith("gc2")}
    print(f"server: {args.root}")
    print(f"websockets opened and closed: {args.rounds} x {args.connections} "
          f"(+{args.warmup} warm-up){' half of them refused' if args.hostile else ''}, "
          f"{args.parallel} at a time, {args.rooms} rooms, {time.perf_counter() - t0:.0f} s")
    print(f"  RSS at start                {mib['start']:8.1f} MiB")
    print(f"  RSS after warm-up           {mib['warm']:8.1f} MiB")
    for n in range(1, args.rounds):
        print(f"  RSS after churn {n:<3d}          {mib[f'churned{n}']:8.1f} MiB")
    print(f"  RSS after the churn         {mib['churned']:8.1f} MiB "
          f"({mib['churned'] - mib['warm']:+.1f} since warm-up)")
    print(f"  RSS after {args.idle:.0f} s idle           {mib['idle']:8.1f} MiB "
          f"({mib['idle'] - mib['warm']:+.1f} since warm-up)")
    print(f"  old-generation collections  {f['gc2']:8.0f} "
          f"({f['gc2_slow']:.0f} of them stood the loop still > 50 ms)")


if __name__ == "__main__":
    main()

"""Does chat slow play? act->ack latency of two players, alone and with chatting spectators.

    .venv/bin/python bench/chat_latency.py --spectators 15
    .venv/bin/python bench/chat_latency.py --root /path/to/another/checkout   # before/after

One server (SQLite journal in a temporary folder) per run. Two players play random legal
actions one at a time in a 2-player room (a new room when a game ends); each action's
time from sending `act` to its `ack` is measured. The same is done again while
`--spectators` spectators each send a chat message every `--every` seconds (the chat
limits are raised for the run, so every message is saved: the same journal work on any
checkout). Prints p50/p90/p99/max of both runs and how many messages were acknowledged.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import jsonpatch
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.serving import free_port  # noqa: E402


class Seat:
    """A player's socket and its view, kept from the snapshot and patches."""

    def __init__(self, ws: websockets.ClientConnection) -> None:
        self.ws = ws
        self.view: dict[str, Any] | None = None
        self.v = -1

    async def recv(self) -> dict[str, Any]:
        frame = json.loads(await self.ws.recv())
        if frame["type"] == "snapshot":
            self.view, self.v = frame["view"], frame["v"]
        elif frame["type"] == "patch" and frame["v"] == self.v + 1:
            self.view = jsonpatch.apply_patch(self.view, frame["ops"])
            self.v = frame["v"]
        return frame

    async def catch_up(self, v: int) -> None:
        while self.v < v or self.view is None or self.view["game"] is None:
            await self.recv()


async def table(api: httpx.AsyncClient, url: str) -> tuple[str, list[Seat]]:
    room = (await api.post("/api/rooms", json={"players": 2})).json()
    code = room["code"]
    seats = []
    for i in range(2):
        token = (await api.post(f"/api/rooms/{code}/join", json={"name": f"P{i}"})).json()
        ws = await websockets.connect(f"{url}/ws/{code}", max_size=None, ping_interval=None)
        await ws.send(json.dumps({"type": "hello", "token": token["seat_token"]}))
        seats.append(Seat(ws))
    await api.post(f"/api/rooms/{code}/start", json={"token": room["host_token"]})
    return code, seats


async def chatter(url: str, code: str, every: float, stop: asyncio.Event,
                  counts: dict[str, int]) -> None:
    async with websockets.connect(f"{url}/ws/{code}", max_size=None,
                                  ping_interval=None) as ws:
        await ws.send(json.dumps({"type": "hello"}))

        async def drain() -> None:
            async for text in ws:
                frame = json.loads(text)
                if frame["type"] in ("ack", "error") and str(frame.get("id", "")).startswith("c"):
                    counts["ack" if frame["type"] == "ack" else frame["code"]] += 1

        reader = asyncio.create_task(drain())
        n = 0
        while not stop.is_set():
            n += 1
            await ws.send(json.dumps({"type": "chat", "id": f"c{n}", "text": f"nice move {n}"}))
            await asyncio.sleep(every)
        reader.cancel()


async def play(base: str, actions: int, spectators: int, every: float,
               rng: random.Random) -> tuple[list[float], dict[str, int]]:
    url = "ws" + base[4:]
    latencies: list[float] = []
    counts: dict[str, int] = {"ack": 0}
    counts.setdefault("chat_slow", 0)
    async with httpx.AsyncClient(base_url=base, timeout=30) as api:
        while len(latencies) < actions:
            code, seats = await table(api, url)
            stop = asyncio.Event()
            talk = [asyncio.create_task(chatter(url, code, every, stop, counts))
                    for _ in range(spectators)]
            await asyncio.sleep(1.0 if spectators else 0)  # the chat is under way
            for s in seats:
                await s.catch_up(0)
            while len(latencies) < actions:
                target = max(s.v for s in seats)
                for s in seats:
                    await s.catch_up(target)
                game = seats[0].view["game"]  # type: ignore[index]
                if game["phase"] == "over":
                    break
                actor = seats[game["current"]]
                action = rng.choice(actor.view["game"]["legal"])  # type: ignore[index]
                sent = time.perf_counter()
                await actor.ws.send(json.dumps({"type": "act", "id": "a", "v": actor.v,
                                                "action": action}))
                while (frame := await actor.recv())["type"] not in ("ack", "error"):
                    pass
                if frame["type"] == "ack":
                    latencies.append(time.perf_counter() - sent)
            stop.set()
            await asyncio.gather(*talk, return_exceptions=True)
            for s in seats:
                await s.ws.close()
    return latencies, counts


def percentiles(xs: list[float]) -> str:
    q = statistics.quantiles(xs, n=100)
    return (f"p50 {q[49] * 1000:6.1f}  p90 {q[89] * 1000:6.1f}  p99 {q[98] * 1000:6.1f}  "
            f"max {max(xs) * 1000:6.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spectators", type=int, default=15)
    parser.add_argument("--every", type=float, default=0.25,
                        help="seconds between two messages of one spectator")
    parser.add_argument("--actions", type=int, default=300, help="measured actions per run")
    parser.add_argument("--root", type=Path, default=ROOT, help="checkout whose server runs")
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as data:
        env = dict(os.environ, HOST="127.0.0.1", PORT=str(port), LOG_LEVEL="warning",
                   ROOM_CREATE_RATE=str(10**9), BOT_WORKERS="0", PRESENCE_INTERVAL="1",
                   CHAT_RATE=str(10**9), CHAT_ADDRESS_RATE=str(10**9),
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
            quiet, _ = asyncio.run(play(base, args.actions, 0, args.every, random.Random(1)))
            busy, counts = asyncio.run(
                play(base, args.actions, args.spectators, args.every, random.Random(1)))
        finally:
            proc.terminate()
            proc.wait(10)
    print(f"server: {args.root}")
    print(f"act->ack, no chat:            {percentiles(quiet)}  ({len(quiet)} actions)")
    print(f"act->ack, {args.spectators:2d} chatting spectators: {percentiles(busy)}  "
          f"({len(busy)} actions)")
    print(f"  chat answers: {dict(counts)} (a message every {args.every} s per spectator)")


if __name__ == "__main__":
    main()

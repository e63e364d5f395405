"""Do hints starve the bots? A bot table's pace alone, and while one client asks hints in
16 rooms, each within the per-seat limit (issue 41.1).

    .venv/bin/python bench/hint_flood.py --seconds 60
    .venv/bin/python bench/hint_flood.py --root /path/to/another/checkout   # before/after

One server (SQLite journal in a temporary folder, one bot worker, the bots' defaults:
BOT_DELAY 0.6 s, BOT_BUDGET 1, BOT_DEADLINE 3 s). A table of `--level` bots plays (a new
one when a game ends) and a spectator notes when each bot action arrives; the gaps between
two actions of a game are its pace. First for `--seconds` alone, then as long again while
the attacker, from the same address, holds `--rooms` hinted 2-player rooms (both seats its
own, each brought to its first move phase, where the expert thinks longest) and asks a
hint in each as soon as the last one is answered, never more than 5 a minute per seat
(the server's per-seat limit); a hint refused `hint_busy` is asked again 0.25 s later.
Prints the gaps of both runs (mean, p50, p90, max), their ratio, and the attacker's
answers by kind.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import jsonpatch
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.serving import free_port, launch, stop, wait_ready  # noqa: E402

PER_MINUTE = 5  # hints per seat per minute (server/bots/hint.py RATE)
RETRY = 0.25  # seconds before a hint refused hint_busy is asked again


async def bot_table(api: httpx.AsyncClient, level: str, players: int) -> str:
    room = (await api.post("/api/rooms", json={"players": players})).json()
    for seat in range(players):
        await api.post(f"/api/rooms/{room['code']}/bot",
                       json={"token": room["host_token"], "seat": seat, "level": level})
    await api.post(f"/api/rooms/{room['code']}/start", json={"token": room["host_token"]})
    return str(room["code"])


async def watch(base: str, api: httpx.AsyncClient, level: str, players: int,
                seconds: float) -> list[float]:
    """Gaps (seconds) between consecutive bot actions at bot tables over `seconds`."""
    gaps: list[float] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        code = await bot_table(api, level, players)
        async with websockets.connect(f"ws{base[4:]}/ws/{code}", max_size=None,
                                      ping_interval=None) as ws:
            await ws.send(json.dumps({"type": "hello"}))
            last = None
            view: Any = None
            while time.monotonic() < end:
                try:
                    frame = json.loads(await asyncio.wait_for(ws.recv(), end - time.monotonic()))
                except TimeoutError:
                    break
                if frame["type"] == "snapshot":
                    view = frame["view"]
                elif frame["type"] == "patch":
                    view = jsonpatch.apply_patch(view, frame["ops"])
                    if frame["events"]:
                        now = time.monotonic()
                        if last is not None:
                            gaps.append(now - last)
                        last = now
                if view and view["game"] and view["game"]["phase"] == "over":
                    break
    return gaps


class Hinter:
    """One attacker room: the socket of the seat to act, brought to a move phase."""

    def __init__(self, ws: Any, view: Any, v: int) -> None:
        self.ws, self.view, self.v = ws, view, v
        self.asked: list[float] = []

    async def recv(self) -> dict[str, Any]:
        frame = json.loads(await self.ws.recv())
        if frame["type"] == "snapshot":
            self.view, self.v = frame["view"], frame["v"]
        elif frame["type"] == "patch" and frame["v"] == self.v + 1:
            self.view = jsonpatch.apply_patch(self.view, frame["ops"])
            self.v = frame["v"]
        return frame


async def attacker_room(base: str, api: httpx.AsyncClient, rng: random.Random) -> list[Any]:
    """A hinted 2-player room, both seats the attacker's, played (randomly) to the first
    move phase; both seats' sockets."""
    room = (await api.post("/api/rooms", json={"players": 2, "hints": True})).json()
    code = room["code"]
    sockets = []
    for name in ("A", "B"):
        token = (await api.post(f"/api/rooms/{code}/join", json={"name": name})).json()
        ws = await websockets.connect(f"ws{base[4:]}/ws/{code}", max_size=None,
                                      ping_interval=None)
        await ws.send(json.dumps({"type": "hello", "token": token["seat_token"]}))
        sockets.append(ws)
    await api.post(f"/api/rooms/{code}/start", json={"token": room["host_token"]})
    seats = [Hinter(ws, None, -1) for ws in sockets]
    for seat in seats:
        while seat.view is None or seat.view["game"] is None:
            await seat.recv()
    while True:
        target = max(s.v for s in seats)
        for s in seats:
            while s.v < target:
                await s.recv()
        game = seats[0].view["game"]
        if game["phase"] == "move" or game["phase"] == "over":
            return [seats[game["current"]], seats[1 - game["current"]]]
        actor = seats[game["current"]]
        await actor.ws.send(json.dumps({"type": "act", "id": "a", "v": actor.v,
                                        "action": rng.choice(actor.view["game"]["legal"])}))
        while (await actor.recv())["type"] not in ("ack", "error"):
            pass


async def hammer(seat: Hinter, stop: asyncio.Event, counts: Counter[str]) -> None:
    n = 0
    while not stop.is_set():
        now = time.monotonic()
        seat.asked = [t for t in seat.asked if t > now - 60.5]
        if len(seat.asked) >= PER_MINUTE:  # within the per-seat limit: wait for the window
            await asyncio.sleep(seat.asked[0] + 60.5 - now)
            continue
        n += 1
        frame_id = f"h{n}"
        await seat.ws.send(json.dumps({"type": "hint", "id": frame_id}))
        while (frame := await seat.recv()).get("id") != frame_id:
            pass
        kind = "hint" if frame["type"] == "hint" else frame["code"]
        counts[kind] += 1
        if kind in ("hint", "stale", "hint_slow"):
            seat.asked.append(time.monotonic())
        else:
            await asyncio.sleep(RETRY)


async def run(base: str, level: str, players: int, seconds: float,
              rooms: int) -> tuple[list[float], list[float], Counter[str]]:
    counts: Counter[str] = Counter()
    async with httpx.AsyncClient(base_url=base, timeout=60) as api:
        alone = await watch(base, api, level, players, seconds)
        rng = random.Random(41)
        held = [await attacker_room(base, api, rng) for _ in range(rooms)]
        stop = asyncio.Event()
        attack = [asyncio.create_task(hammer(seats[0], stop, counts)) for seats in held]
        try:
            attacked = await watch(base, api, level, players, seconds)
        finally:
            stop.set()
            for task in attack:
                task.cancel()
            await asyncio.gather(*attack, return_exceptions=True)
            for seats in held:
                for seat in seats:
                    await seat.ws.close()
    return alone, attacked, counts


def figures(gaps: list[float]) -> str:
    if len(gaps) < 2:
        return f"{len(gaps)} gaps"
    q = statistics.quantiles(gaps, n=10, method="inclusive")
    return (f"mean {statistics.fmean(gaps):5.2f}  p50 {q[4]:5.2f}  p90 {q[8]:5.2f}  "
            f"max {max(gaps):5.2f} s  ({len(gaps)} gaps)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60, help="length of each run")
    parser.add_argument("--rooms", type=int, default=16, help="the attacker's rooms")
    parser.add_argument("--level", default="greedy", help="the bot table's level")
    parser.add_argument("--players", type=int, default=2, help="bots at the table")
    parser.add_argument("--root", type=Path, default=ROOT, help="checkout whose server runs")
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as data:
        proc = launch({"PORT": str(port), "LOG_LEVEL": "error", "ROOM_CREATE_RATE": str(10**9),
                       "BOT_WORKERS": "1", "DATABASE_URL": f"sqlite+aiosqlite:///{data}/bench.db",
                       "JOURNAL_FALLBACK_PATH": f"{data}/fallback.jsonl"},
                      stderr=None, cwd=args.root)
        base = f"http://127.0.0.1:{port}"
        try:
            wait_ready(proc, base)
            alone, attacked, counts = asyncio.run(
                run(base, args.level, args.players, args.seconds, args.rooms))
        finally:
            stop(proc)
    print(f"server: {args.root}")
    print(f"{args.level} bot table alone:          {figures(alone)}")
    print(f"under a {args.rooms}-room hint attack:  {figures(attacked)}")
    if len(alone) >= 2 and len(attacked) >= 2:
        ratio = statistics.fmean(attacked) / statistics.fmean(alone)
        p90 = (statistics.quantiles(attacked, n=10, method="inclusive")[8]
               / statistics.quantiles(alone, n=10, method="inclusive")[8])
        print(f"  ratio attacked/alone: mean {ratio:.2f}, p90 {p90:.2f}")
    print(f"  the attacker's answers: {dict(sorted(counts.items()))}")


if __name__ == "__main__":
    main()

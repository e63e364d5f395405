"""Online-play load benchmark: real server, real websockets, rooms of 4 players + 4 spectators.

Runs the bare baseline (bench/baseline.py) and the game server under the same load, one
after the other, and prints every figure with its ratio to the baseline:

    .venv/bin/python bench/load.py --rooms 1000 --pace 1 --duration 60
    .venv/bin/python bench/load.py --rooms 100 --pace 0 --duration 30      # flat out
    .venv/bin/python bench/load.py --rooms 100 --pace 0 --duration 20 --rounds 5
    .venv/bin/python bench/load.py --pace 0 --rounds 3 --against df626bc   # A/B, one sitting

On a shared virtual machine one run's figures swing by 10% and more from one minute to the
next. `--rounds N` runs both servers N times, in alternating order, and reports each
figure's median, and each ratio as the median of the rounds' own (same-round) ratios; every
round's figures are kept in the JSON under `rounds`.

`--against REF` is A/B in one sitting: each round also runs the game server of another
checkout (a directory; its own .venv if it has one) or of a commit of this repository (a
temporary detached worktree, run with this checkout's interpreter and packages), the three
servers in an order turned by one place from round to round (use a multiple of 3 rounds, so
each runs as often in each place), and prints both ratio tables: this checkout's (`game`)
and the other's (`against`), each to the bare baseline of its own round, and the other's
figures over this checkout's (`against/game`). `--against HEAD` measures the harness itself:
its `against/game` should stay near 1.

The load generator is bench/node/loadgen.mjs (Node and the `ws` package, installed by
`make bench`), which saturates the bare baseline where Python clients cannot;
`--client python` uses the Python clients below instead. Latency is measured from sending
an action to the last socket of its room receiving the resulting patch; all 8 sockets of a
room live in one client process, so one clock is used. The game server runs with
STAGE_TIMING on when paced (or with --stages), so the table also splits its time per
action into stages (frame received -> rules applied -> journal durable -> frames queued ->
last socket written), read from its /metrics, next to how long the journal's transactions
took (`commit`, mostly the disk's fsync: a journal-stage tail that commit shares is the
disk's) and the collector's passes. CPU is read from /proc: the server's
processes (`server_cpu_pct`, the journal's writer thread included), their event loop threads
alone (`loop_cpu_pct`: flat out, a loop short of 100% means actions wait elsewhere), and the
load generator's (`client_cpu_pct`). A game that ends is replaced by a new room (created,
joined, started, 8 sockets greeted) while the baseline's games never end: `setup_cpu_ms_per_room`
is the server's CPU per room while every room opened, `rooms_replaced_per_s` how many games
ended in the window, and `cpu_ms_per_action_in_play` the CPU per action with those set-ups
taken out (an estimate, reported beside `cpu_ms_per_action`, which stays the figure).
`--json` prints one JSON object as the last line: `baseline`, `game`, `ratio` (game /
baseline), each with the table's figures, and a per-second p99 series.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import multiprocessing as mp
import os
import queue as queue_module
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from multiprocessing.synchronize import Event
from pathlib import Path

import httpx
import jsonpatch
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.ports import free_port  # noqa: E402  (one place picks the ports: tests/ports.py)

NODE_DIR = ROOT / "bench" / "node"
SEATS = 4
SPECTATORS = 4
# A client keeps only these parts of its view (the whole view at the start of the game), so
# the load generator stays light; the server still builds and sends every full patch.
TRACKED = ("/game/phase", "/game/current", "/game/legal")


def tracked(game: dict | None) -> dict | None:
    return game and {k: game.get(k) for k in ("phase", "current", "legal")}


# --- the server under test -------------------------------------------------------------


METRICS_PORTS: dict[int, int] = {}  # a game server's port -> its metrics listener's


def start_server(kind: str, port: int, data_dir: str, database_url: str | None,
                 stages: bool = False, cmd: list[str] | None = None,
                 root: Path | None = None) -> subprocess.Popen:
    """The game server (or the baseline) on `port`, once it answers /healthz; `cmd` runs
    another command with the game server's environment (bench/memory.py's tracing one);
    `root`: the game server of another checkout (see `checkout`)."""
    METRICS_PORTS[port] = free_port()
    env = dict(os.environ, HOST="127.0.0.1", PORT=str(port), LOG_LEVEL="warning",
               WS_FLOOD_MESSAGES=str(10**9), ROOM_CREATE_RATE=str(10**9),
               WS_PER_ADDRESS=str(10**9), HTTP_PER_ADDRESS=str(10**9),
               METRICS_PORT=str(METRICS_PORTS[port]),
               STAGE_TIMING="1" if stages else "0",
               DATABASE_URL=database_url or f"sqlite+aiosqlite:///{data_dir}/bench.db",
               JOURNAL_FALLBACK_PATH=f"{data_dir}/fallback.jsonl")
    if cmd is None:
        cmd = [python_of(root or ROOT), "-m", "server"] if kind == "game" else \
            [sys.executable, str(ROOT / "bench" / "baseline.py"), "--port", str(port)]
    proc = subprocess.Popen(cmd, cwd=root or ROOT, env=env)
    for _ in range(300):
        if proc.poll() is not None:  # e.g. its port taken: not another server's /healthz
            raise SystemExit(f"{kind} server exited with {proc.returncode}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    proc.kill()
    raise SystemExit(f"{kind} server did not start")


def python_of(root: Path) -> str:
    """The interpreter for a checkout's server: its own virtualenv's, else this one."""
    own = root / ".venv" / "bin" / "python"
    return str(own) if root != ROOT and own.exists() else sys.executable


@contextlib.contextmanager
def checkout(ref: str) -> Iterator[Path]:
    """`ref` as a checkout to run: a directory as it is, else a commit of this repository
    in a temporary detached worktree (removed afterwards)."""
    if Path(ref).is_dir():
        yield Path(ref).resolve()
        return
    with tempfile.TemporaryDirectory(prefix="load-against-") as parent:
        where = Path(parent) / "checkout"
        subprocess.run(["git", "worktree", "add", "--detach", "--quiet", str(where), ref],
                       cwd=ROOT, check=True)
        try:
            yield where
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(where)], cwd=ROOT,
                           check=False)


def cpu_seconds(pid: int, thread: int | None = None) -> float:
    """CPU seconds of a process (all its threads), or of one of its threads."""
    stat = Path(f"/proc/{pid}/stat" if thread is None else f"/proc/{pid}/task/{thread}/stat")
    fields = stat.read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


# --- clients ---------------------------------------------------------------------------


async def make_room(http: httpx.AsyncClient, kind: str,
                    rng: random.Random) -> tuple[str, list[str | None]]:
    if kind == "baseline":
        return f"B{rng.getrandbits(40):X}", [None] * SEATS
    created = (await http.post("/api/rooms", json={"players": SEATS})).json()
    code = created["code"]
    tokens: list[str | None] = []
    for i in range(SEATS):
        joined = (await http.post(f"/api/rooms/{code}/join", json={"name": f"p{i}"})).json()
        tokens.append(joined["seat_token"])
    started = await http.post(f"/api/rooms/{code}/start", json={"token": created["host_token"]})
    started.raise_for_status()
    return code, tokens


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    errors: int = 0
    error_codes: dict[str, int] = field(default_factory=dict)
    patch_bytes: int = 0
    patches: int = 0
    snapshot_bytes: int = 0
    snapshots: int = 0
    starts: list[float] = field(default_factory=list)  # seconds into the measured window
    replaced: int = 0  # rooms whose game ended inside the window, each replaced by a new one


class Room:
    """8 sockets; drives one action at a time and times its fan-out."""

    def __init__(self, port: int, code: str, tokens: list[str | None], stats: Stats) -> None:
        self.url = f"ws://127.0.0.1:{port}/ws/{code}"
        self.tokens = tokens + [None] * SPECTATORS
        self.stats = stats
        self.views: list[dict] = [{} for _ in self.tokens]
        self.versions = [-1] * len(self.tokens)
        self.target: int | None = None  # version of our last action, from its ack
        self.arrived = asyncio.Event()
        self.sockets: list = []
        self.over = False

    async def open(self) -> None:
        for i, token in enumerate(self.tokens):
            ws = await websockets.connect(self.url, max_size=None, compression=None,
                                          open_timeout=60)
            await ws.send(json.dumps({"type": "hello", "token": token}))
            self.sockets.append(ws)
            self._on_frame(i, await ws.recv())
        self.readers = [asyncio.create_task(self._read(i)) for i in range(len(self.sockets))]

    async def close(self) -> None:
        for task in self.readers:
            task.cancel()
        await asyncio.gather(*(ws.close() for ws in self.sockets), return_exceptions=True)

    def _on_frame(self, i: int, raw: str) -> None:
        frame = json.loads(raw)
        kind = frame["type"]
        if kind == "snapshot":
            self.stats.snapshot_bytes += len(raw)
            self.stats.snapshots += 1
            self.views[i] = {"game": tracked(frame["view"]["game"])}
        elif kind == "patch":
            self.stats.patch_bytes += len(raw)
            self.stats.patches += 1
            if i < SEATS:  # players track what they need to act: phase, current, legal
                ops = [op for op in frame["ops"] if op["path"].startswith(TRACKED)]
                for op in frame["ops"]:
                    if op["path"] == "/game":  # the game starts: the whole view arrives
                        self.views[i] = {"game": tracked(op["value"])}
                if ops:
                    jsonpatch.apply_patch(self.views[i], ops, in_place=True)
        elif kind == "ack":
            self.target = frame["v"]
        elif kind == "error":
            self.stats.errors += 1
            codes = self.stats.error_codes
            codes[frame.get("code", "?")] = codes.get(frame.get("code", "?"), 0) + 1
            self.arrived.set()
            return
        else:
            return
        if kind != "ack":
            self.versions[i] = frame["v"]
        if self.target is not None and min(self.versions) >= self.target:
            self.arrived.set()

    async def _read(self, i: int) -> None:
        try:
            async for raw in self.sockets[i]:
                try:
                    self._on_frame(i, raw)
                except (KeyError, ValueError, jsonpatch.JsonPatchException):
                    self.stats.errors += 1
        except websockets.ConnectionClosed:
            pass

    async def act(self, rng: random.Random, window: tuple[float, float]) -> bool:
        """One action by the seat to act (counted if it starts inside `window`); False when
        the game is over."""
        game = self.views[0].get("game") or {}
        if game.get("phase") == "over":
            return False
        seat = game.get("current") or 0
        legal = (self.views[seat].get("game") or {}).get("legal") or []
        if not legal:
            return False
        v = self.versions[seat]
        self.target = None
        self.arrived.clear()
        start = time.perf_counter()
        frame = {"type": "act", "id": v, "v": v, "action": rng.choice(legal)}
        await self.sockets[seat].send(json.dumps(frame))
        await asyncio.wait_for(self.arrived.wait(), 30)
        measured = window[0] <= start < window[1]
        if measured and self.target is not None and min(self.versions) >= self.target:
            self.stats.latencies.append(time.perf_counter() - start)
            self.stats.starts.append(start - window[0])
            self.stats.actions += 1
        return True


async def drive(kind: str, port: int, rooms: int, pace: float, warmup: float,
                duration: float, seed: int, ready: mp.Queue, go: Event) -> Stats:
    """Open every room, report ready, wait for the go, then act until the window ends."""
    stats = Stats()
    rng = random.Random(seed)
    opening = asyncio.Semaphore(20)
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=120) as http:

        async def open_room() -> Room:
            async with opening:
                for attempt in range(3):  # a dropped request: start over with a new room
                    try:
                        code, tokens = await make_room(http, kind, rng)
                        break
                    except httpx.TransportError:
                        stats.error_codes["setup"] = stats.error_codes.get("setup", 0) + 1
                        if attempt == 2:
                            raise
                room = Room(port, code, tokens, stats)
                await room.open()
                return room

        async def play(room: Room) -> None:
            spread = rng.random() / max(pace, 1)  # rooms do not all act in step
            await asyncio.sleep(spread)
            while time.perf_counter() < window[1]:
                began = time.perf_counter()
                if not await room.act(rng, window):  # game over: a new room takes its place
                    if window[0] <= time.perf_counter() < window[1]:
                        stats.replaced += 1
                    await room.close()
                    room = await open_room()
                    continue
                if pace:
                    await asyncio.sleep(max(0.0, 1 / pace - (time.perf_counter() - began)))
            await room.close()

        opened = await asyncio.gather(*(open_room() for _ in range(rooms)))
        ready.put(len(opened))
        while not go.is_set():
            await asyncio.sleep(0.05)
        begin = time.perf_counter() + warmup
        window = (begin, begin + duration)
        await asyncio.gather(*(play(room) for room in opened))
    return stats


def client_process(args: tuple, out: mp.Queue, ready: mp.Queue, go: Event) -> None:
    kind, port, rooms, pace, warmup, duration, seed = args
    stats = asyncio.run(drive(kind, port, rooms, pace, warmup, duration, seed, ready, go))
    out.put(stats.__dict__)


# --- the load generators -----------------------------------------------------------------


def node_available() -> bool:
    return shutil.which("node") is not None and (NODE_DIR / "node_modules" / "ws").is_dir()


class PythonClients:
    """The Python clients above, in `procs` processes."""

    def __init__(self, kind: str, port: int, shares: list[int], pace: float, warmup: float,
                 duration: float) -> None:
        self.queue: mp.Queue = mp.Queue()
        self.ready: mp.Queue = mp.Queue()
        self.go_event = mp.Event()
        self.duration = duration
        self.workers = [
            mp.Process(target=client_process, args=(
                (kind, port, n, pace, warmup, duration, 1000 + i),
                self.queue, self.ready, self.go_event))
            for i, n in enumerate(shares)
        ]
        for w in self.workers:
            w.start()

    @property
    def pids(self) -> list[int]:
        return [w.pid for w in self.workers if w.pid is not None]

    def wait_ready(self) -> None:
        for _ in self.workers:  # every room created and every socket open
            waited = 0.0
            while True:
                try:
                    self.ready.get(timeout=1)
                    break
                except queue_module.Empty:
                    waited += 1
                    if waited > 1200 or any(w.exitcode not in (None, 0) for w in self.workers):
                        raise SystemExit("a load client failed while opening its rooms") from None

    def go(self) -> None:
        self.go_event.set()

    def results(self) -> list[dict]:
        return [self.queue.get(timeout=self.duration + 300) for _ in self.workers]

    def stop(self) -> None:
        for w in self.workers:
            w.join(timeout=60)
            if w.is_alive():
                w.kill()


class NodeClients:
    """bench/node/loadgen.mjs, in `procs` processes; latencies come back in ms."""

    def __init__(self, kind: str, port: int, shares: list[int], pace: float, warmup: float,
                 duration: float) -> None:
        self.duration = duration
        self.procs = [
            subprocess.Popen(
                ["node", str(NODE_DIR / "loadgen.mjs"), json.dumps({
                    "kind": kind, "port": port, "rooms": n, "pace": pace, "warmup": warmup,
                    "duration": duration, "seed": 1000 + i})],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            for i, n in enumerate(shares)
        ]

    @property
    def pids(self) -> list[int]:
        return [proc.pid for proc in self.procs]

    def wait_ready(self) -> None:
        for proc in self.procs:
            line = proc.stdout.readline() if proc.stdout else ""
            if not line.startswith("ready"):
                raise SystemExit("a load client failed while opening its rooms")

    def go(self) -> None:
        for proc in self.procs:
            assert proc.stdin is not None
            proc.stdin.write("go\n")
            proc.stdin.flush()

    def results(self) -> list[dict]:
        out = []
        for proc in self.procs:
            assert proc.stdout is not None
            line = proc.stdout.readline()
            if not line.strip():
                raise SystemExit("a load client failed during the run")
            result = json.loads(line)
            result["latencies"] = [ms / 1000 for ms in result["latencies"]]
            out.append(result)
        return out

    def stop(self) -> None:
        for proc in self.procs:
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()


# --- the server's own timing (STAGE_TIMING) -------------------------------------------------

STAGE_LINE = re.compile(
    r'^coffee_rush_action_stage_seconds_bucket\{le="([^"]+)",stage="([^"]+)"\} (\S+)$')
GC_LINE = re.compile(
    r'^coffee_rush_gc_pause_seconds_bucket\{generation="(\d)",le="([^"]+)"\} (\S+)$')
COMMIT_LINE = re.compile(r'^coffee_rush_journal_commit_seconds_bucket\{le="([^"]+)"\} (\S+)$')


def stage_buckets(port: int) -> dict[str, list[tuple[float, float]]]:
    """stage -> [(upper bound, cumulative count)] from the server's /metrics, with the
    journal's transactions as stage "commit" and the collector's pauses as "gc0", "gc1",
    "gc2" (empty for the baseline, which has no /metrics)."""
    if port not in METRICS_PORTS:
        return {}
    try:
        text = httpx.get(f"http://127.0.0.1:{METRICS_PORTS[port]}/metrics", timeout=10).text
    except httpx.HTTPError:
        return {}
    out: dict[str, list[tuple[float, float]]] = {}
    for line in text.splitlines():
        if m := STAGE_LINE.match(line):
            out.setdefault(m.group(2), []).append((float(m.group(1)), float(m.group(3))))
        elif m := GC_LINE.match(line):
            out.setdefault(f"gc{m.group(1)}", []).append((float(m.group(2)),
                                                          float(m.group(3))))
        elif m := COMMIT_LINE.match(line):
            out.setdefault("commit", []).append((float(m.group(1)), float(m.group(2))))
    return out


def bucket_quantile(buckets: list[tuple[float, float]], q: float) -> float:
    """Prometheus's histogram_quantile: linear inside the bucket holding the rank."""
    total = buckets[-1][1] if buckets else 0
    if total <= 0:
        return float("nan")
    rank, lower, below = q * total, 0.0, 0.0
    for bound, count in buckets:
        if count >= rank:
            if math.isinf(bound):
                return lower
            return lower + (bound - lower) * (rank - below) / max(count - below, 1e-9)
        lower, below = bound, count
    return lower


def stage_figures(before: dict, after: dict) -> dict[str, dict[str, float]]:
    """Per stage, p50/p95/p99 in ms over the measured window (the difference of two
    scrapes), its count, and `max_ms`: the bucket bound that holds the slowest."""
    out = {}
    for stage, buckets in after.items():
        old = dict(before.get(stage, []))
        delta = [(b, c - old.get(b, 0.0)) for b, c in buckets]
        out[stage] = {f"p{int(q * 100)}_ms": 1000 * bucket_quantile(delta, q)
                      for q in (0.5, 0.95, 0.99)}
        out[stage]["count"] = total = delta[-1][1] if delta else 0
        out[stage]["max_ms"] = 1000 * next((b for b, c in delta if c >= total), 0.0) \
            if total else 0.0
    return out


# --- one run ---------------------------------------------------------------------------


def run(kind: str, rooms: int, pace: float, duration: float, procs: int,
        database_url: str | None, client: str = "node", stages: bool = False,
        public_protocols: bool = False, root: Path | None = None) -> dict:
    """One server under the load: the baseline, or a game server (`root`: another
    checkout's, for --against)."""
    port = free_port()
    server_kind = "baseline" if kind == "baseline" else "game"
    cmd = [python_of(root or ROOT), str((root or ROOT) / "bench" / "public_server.py")] \
        if server_kind == "game" and public_protocols else None
    with tempfile.TemporaryDirectory() as data_dir:
        server = start_server(server_kind, port, data_dir, database_url, stages, cmd, root)
        try:
            return {"server": kind, **measure(server_kind, port, [server.pid], rooms, pace,
                                              duration, procs, client)}
        finally:
            server.terminate()
            server.wait(timeout=30)


def measure(kind: str, port: int, pids: list[int], rooms: int, pace: float, duration: float,
            procs: int, client: str = "python") -> dict:
    """The load against the server(s) reached on `port`; CPU and memory are summed over the
    processes `pids` (several instances behind a proxy, for bench/cluster.py)."""
    rss_idle = sum(rss_mib(p) for p in pids)
    cpu_idle = cpu_use(pids, []).server
    shares = [n for n in (rooms // procs + (1 if i < rooms % procs else 0)
                          for i in range(procs)) if n]
    warmup = 3.0
    clients = (NodeClients if client == "node" else PythonClients)(
        kind, port, shares, pace, warmup, duration)
    try:
        clients.wait_ready()
        rss_idle_rooms = sum(rss_mib(p) for p in pids)
        setup_cpu = (cpu_use(pids, []).server - cpu_idle) / rooms  # seconds per room opened
        clients.go()
        time.sleep(warmup)
        stages0 = stage_buckets(port)
        cpu0, t0 = cpu_use(pids, clients.pids), time.perf_counter()
        time.sleep(duration)
        cpu1, t1 = cpu_use(pids, clients.pids), time.perf_counter()
        stages1 = stage_buckets(port)
        rss = sum(rss_mib(p) for p in pids)
        results = clients.results()
    finally:
        clients.stop()
    lat = sorted(x for r in results for x in r["latencies"])
    total = sum(r["actions"] for r in results)

    def pct(values: list[float], p: float) -> float:
        return 1000 * values[min(len(values) - 1, int(p * len(values)))] if values \
            else float("nan")

    per_second: dict[int, list[float]] = {}
    for r in results:
        for start, latency in zip(r.get("starts", []), r["latencies"], strict=False):
            per_second.setdefault(int(start), []).append(latency)
    patches = sum(r["patches"] for r in results)
    replaced = sum(r.get("replaced", 0) for r in results)
    window_cpu = cpu1.server - cpu0.server
    snaps = sum(r["snapshots"] for r in results)
    return {
        "actions_per_s": total / duration,
        "p50_ms": pct(lat, 0.50), "p95_ms": pct(lat, 0.95), "p99_ms": pct(lat, 0.99),
        "server_cpu_pct": 100 * (cpu1.server - cpu0.server) / (t1 - t0),
        "loop_cpu_pct": 100 * (cpu1.loop - cpu0.loop) / (t1 - t0),
        "client_cpu_pct": 100 * (cpu1.clients - cpu0.clients) / (t1 - t0),
        "cpu_ms_per_action": 1000 * window_cpu / max(1, total),
        # A room's set-up (created, joined, started, 8 sockets greeted), from the CPU the
        # server spent while every room opened; the game server pays it again for each room
        # whose game ends in the window (the baseline's games never end), so the CPU per
        # action of play alone leaves those set-ups out: an estimate, reported beside the
        # figure above, never instead of it.
        "setup_cpu_ms_per_room": 1000 * setup_cpu,
        "rooms_replaced_per_s": replaced / duration,
        "cpu_ms_per_action_in_play": 1000 * max(0.0, window_cpu - replaced * setup_cpu)
        / max(1, total),
        "rss_mib": rss, "rss_kib_per_room": 1024 * (rss_idle_rooms - rss_idle) / rooms,
        # The same after the measured window: resume buffers and views in play (a room whose
        # game ended meanwhile is replaced by a new one: per starting room).
        "rss_kib_per_room_played": 1024 * (rss - rss_idle) / rooms,
        "patch_bytes": sum(r["patch_bytes"] for r in results) / max(1, patches),
        "snapshot_bytes": sum(r["snapshot_bytes"] for r in results) / max(1, snaps),
        "errors": sum(r["errors"] for r in results),
        "error_codes": {c: sum(r["error_codes"].get(c, 0) for r in results)
                        for r0 in results for c in r0["error_codes"]},
        "p99_ms_per_second": [round(pct(sorted(per_second[s]), 0.99), 2)
                              for s in sorted(per_second) if s < duration],
        **split_stages(stage_figures(stages0, stages1)),
    }


@dataclass(frozen=True)
class CpuUse:
    server: float  # the server processes, all their threads
    loop: float  # their main threads: the event loops
    clients: float  # the load generators


def cpu_use(servers: list[int], clients: list[int]) -> CpuUse:
    """CPU seconds so far. A server's loop at 100% is what bounds its actions/s; below
    that, the actions wait elsewhere (the journal, the clients)."""
    return CpuUse(server=sum(cpu_seconds(p) for p in servers),
                  loop=sum(cpu_seconds(p, thread=p) for p in servers),
                  clients=sum(cpu_seconds(p) for p in clients))


def split_stages(figures: dict[str, dict[str, float]]) -> dict[str, dict]:
    """The action stages under "stages", the journal's transactions under "commit", the
    collector's passes under "gc"."""
    return {"stages": {k: v for k, v in figures.items()
                       if k != "commit" and not k.startswith("gc")},
            "commit": figures.get("commit", {}),
            "gc": {k: v for k, v in figures.items() if k.startswith("gc")}}


FIGURES = ("actions_per_s", "p50_ms", "p95_ms", "p99_ms", "server_cpu_pct", "loop_cpu_pct",
           "client_cpu_pct", "cpu_ms_per_action", "setup_cpu_ms_per_room",
           "rooms_replaced_per_s", "cpu_ms_per_action_in_play", "rss_mib", "rss_kib_per_room",
           "rss_kib_per_room_played", "patch_bytes", "snapshot_bytes", "errors")


RATIOS = {"ratio": ("game", "baseline"), "ratio_against": ("against", "baseline"),
          "against_over_game": ("against", "game")}  # name -> (numerator, denominator)


def round_ratios(done: dict) -> dict:
    """The ratios a round's servers allow, each of that round's own figures."""
    return {name: ratios(done[den], done[num]) for name, (num, den) in RATIOS.items()
            if num in done and den in done}


def ratios(baseline: dict, game: dict) -> dict:
    """Each figure of the game over the baseline's (None where the baseline's is 0)."""
    return {k: game[k] / baseline[k] if baseline[k] else None for k in FIGURES}


def round_order(kinds: list[str], index: int) -> list[str]:
    """The servers of round `index` in the order they run: turned by one place from one round
    to the next, so that over len(kinds) rounds each server runs once in each place (two
    servers alternate). A machine growing busier or quieter over the rounds favours none, nor
    does a place: with three servers and only two orders, the game server always ran second,
    and this checkout measured against itself used 12% more CPU per action than its copy in
    the first or last place (0.49 against 0.42 ms, medians of 3 rounds)."""
    turn = index % len(kinds)
    return kinds[turn:] + kinds[:turn]


def combine(runs: list[dict]) -> dict:
    """Several rounds of one server as one: each figure's median, but `errors` summed (with
    their codes); the stages, collector passes and per-second series are those of the round
    of median actions/s (a real run, not a blend)."""
    middle = sorted(runs, key=lambda r: r["actions_per_s"])[len(runs) // 2]
    combined = {**middle, **{k: statistics.median(r[k] for r in runs) for k in FIGURES}}
    combined["errors"] = sum(r["errors"] for r in runs)
    codes: dict[str, int] = {}
    for r in runs:
        for code, count in r["error_codes"].items():
            codes[code] = codes.get(code, 0) + count
    combined["error_codes"] = codes
    return combined


def median_ratios(rounds: list[dict], name: str = "ratio") -> dict:
    """Each figure's ratio as the median of the rounds' own (game / baseline, same round;
    `name`: another of RATIOS)."""
    out = {}
    for k in FIGURES:
        values = [r[name][k] for r in rounds if r[name][k] is not None]
        out[k] = statistics.median(values) if values else None
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rooms", type=int, default=100)
    parser.add_argument("--pace", type=float, default=1.0,
                        help="actions per second per room (0 = flat out)")
    parser.add_argument("--duration", type=float, default=30.0, help="measured seconds")
    parser.add_argument("--rounds", type=int, default=1,
                        help="rounds of baseline and game, each in an order turned by one "
                        "place; figures are medians, a ratio the median of the rounds' own")
    parser.add_argument("--procs", type=int, default=0,
                        help="client processes (default: 1 node, 3 python)")
    parser.add_argument("--client", choices=["node", "python"], default="node",
                        help="the load generator (node: bench/node/loadgen.mjs, make bench)")
    parser.add_argument("--only", choices=["game", "baseline"])
    parser.add_argument("--database-url", help="the game server's journal (default: a "
                        "fresh SQLite file); e.g. postgresql+asyncpg://postgres@127.0.0.1/bench")
    parser.add_argument("--stages", action=argparse.BooleanOptionalAction, default=None,
                        help="time the game server's stages (default: when paced; the "
                        "marks cost a little CPU per socket)")
    parser.add_argument("--public-protocols", action="store_true",
                        help="run the game server on uvicorn's stock protocols, not "
                        "server/ws/protocol.py's (bench/public_server.py)")
    parser.add_argument("--against", metavar="REF",
                        help="A/B: also run the game server of another checkout (a "
                        "directory) or of a commit of this repository, in the same rounds")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    if args.against and args.only:
        parser.error("--against runs every server: leave out --only")
    with contextlib.ExitStack() as stack:
        against = stack.enter_context(checkout(args.against)) if args.against else None
        run_rounds(args, against)


def run_rounds(args: argparse.Namespace, against: Path | None) -> None:
    stages = bool(args.pace) if args.stages is None else args.stages
    if args.client == "node" and not node_available():
        raise SystemExit("bench/node is not installed: run `make bench` (or --client python)")
    procs = args.procs or (1 if args.client == "node" else 3)
    kinds = [args.only] if args.only else ["baseline", "game"]
    if against is not None:
        kinds.append("against")
    rounds = []
    for index in range(args.rounds):
        done = {k: run(k, args.rooms, args.pace, args.duration, procs, args.database_url,
                       args.client, stages, args.public_protocols,
                       *((against,) if k == "against" else ()))
                for k in round_order(kinds, index)}
        done.update(round_ratios(done))
        rounds.append(done)
    results: dict = {k: combine([r[k] for r in rounds]) for k in kinds}
    for name in RATIOS:
        if name in rounds[0]:
            results[name] = median_ratios(rounds, name)
    if args.rounds > 1:
        results["rounds"] = rounds
    results["config"] = {"rooms": args.rooms, "pace": args.pace, "duration": args.duration,
                         "rounds": args.rounds, "client": args.client, "procs": procs,
                         "stages": stages, "journal": args.database_url or "sqlite (fresh file)",
                         "protocols": "uvicorn's" if args.public_protocols else "ours",
                         "against": None if against is None else
                         f"{args.against} ({describe(against)})"}
    if not args.json:
        print_table(args, procs, kinds, results)
        return
    print(json.dumps(results))


def describe(root: Path) -> str:
    """A checkout's commit, short, and whether it has changes not committed."""
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root,
                          capture_output=True, text=True).stdout.strip() or "?"
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                           capture_output=True, text=True).stdout.strip()
    return head + (" with changes" if dirty else "")


def print_table(args: argparse.Namespace, procs: int, kinds: list[str], results: dict) -> None:
    print(f"rooms={args.rooms} sockets={args.rooms * (SEATS + SPECTATORS)} "
          f"pace={'flat out' if not args.pace else f'{args.pace}/s/room'} "
          f"measured={args.duration}s client={args.client}x{procs} "
          f"journal={args.database_url or 'sqlite (fresh file)'}"
          + (" protocols=uvicorn's" if args.public_protocols else "")
          + (f" rounds={args.rounds} (medians)" if args.rounds > 1 else ""))
    if results["config"].get("against"):
        print(f"game: this checkout ({describe(ROOT)}); against: {results['config']['against']}")
    shown = [name for name in RATIOS if name in results]
    print(f"{'figure':<20}" + "".join(f"{k:>14}" for k in kinds)
          + "".join(f"{'/'.join(RATIOS[name]):>19}" for name in shown))
    for key in FIGURES:
        row = [results[k][key] for k in kinds]
        ratio_row = [results[name][key] for name in shown]
        print(f"{key:<20}" + "".join(f"{x:>14.2f}" for x in row)
              + "".join(f"{r:>19.2f}" if r is not None else f"{'':>19}" for r in ratio_row))
    for index, done in enumerate(results.get("rounds", []), 1):
        print(f"round {index} ({' then '.join(round_order(kinds, index - 1))}): " + ", ".join(
            f"{key} " + " / ".join(f"{done[k][key]:.2f}" for k in kinds)
            + "".join(f" ({'/'.join(RATIOS[name])} {done[name][key]:.2f})" for name in shown
                      if done[name][key] is not None)
            for key in ("actions_per_s", "cpu_ms_per_action", "cpu_ms_per_action_in_play",
                        "p95_ms")))
    for k in kinds:
        if results[k]["error_codes"]:
            print(f"error codes ({k}): {results[k]['error_codes']}")
    game = results.get("game", {})
    # Rows with nothing counted: the action stages when not timed (flat out, no --stages),
    # a collector generation that never ran.
    commit = {"commit": game["commit"]} if game.get("commit") else {}
    rows = {name: q for name, q in {**game.get("stages", {}), **commit,
                                    **game.get("gc", {})}.items() if q["count"]}
    if rows:
        timed = results["config"]["stages"]
        print("game server, from its /metrics, bucket-interpolated: "
              + ("per accepted action, " if timed else "")
              + "per journal transaction (commit), per collector pass (gc0-gc2)"
              + ("" if timed else "; action stages not timed (--stages)") + ":")
        print(f"{'stage':<20}{'p50_ms':>10}{'p95_ms':>10}{'p99_ms':>10}{'max_ms':>10}"
              f"{'count':>10}")
        for stage, q in rows.items():
            print(f"{stage:<20}{q['p50_ms']:>10.2f}{q['p95_ms']:>10.2f}{q['p99_ms']:>10.2f}"
                  f"{q['max_ms']:>10.1f}{q['count']:>10.0f}")
    for k in kinds:
        series = results[k]["p99_ms_per_second"]
        print(f"p99_ms per second ({k}): " + " ".join(f"{x:.0f}" for x in series))


if __name__ == "__main__":
    main()

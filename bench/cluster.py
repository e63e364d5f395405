"""Cluster benchmark: one instance against two behind HAProxy, then failover under load.

    .venv/bin/python bench/cluster.py                              # 100 rooms, 20 kills
    .venv/bin/python bench/cluster.py --rooms 1000 --duration 60 --json
    .venv/bin/python bench/cluster.py --smoke                      # a few seconds (tests)

Everything is real and on loopback (tests/cluster/harness.py): its own redis-server, HAProxy
from deploy/haproxy.cfg, `python -m server` instances, a fresh PostgreSQL database (on the
server of TEST_DATABASE_URL), dropped at the end.

1. Load (bench/load.py's clients, Node by default: rooms of 4 players + 4 spectators,
   `--pace` actions per second per room): `single` is one instance in single-process mode on
   PostgreSQL, reached directly; `cluster2` is two instances in cluster mode behind HAProxy.
   Actions/s, ack latency (action sent -> patch on all 8 sockets), instance CPU per action
   from /proc.
2. Failover: `--failover-rooms` rooms play through HAProxy at one action per second; `--kills`
   times the instance owning most rooms is SIGKILLed and started again. Per room it owned:
   seconds from the kill to the room's first acknowledged action (on the new owner). At
   the end every acknowledged action is looked up in the database (the journal, or the
   saved game): `lost_actions` acked but not stored, `duplicated_actions` stored that no
   client sent (or twice); `unacked_applied` counts actions whose connection died before
   the ack but that the server had stored (allowed: durable before the ack).

`--json` prints one JSON object as the last line.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import copy
import difflib
import json
import random
import signal
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import websockets
from load import Room, Stats, cpu_seconds, make_room, measure, node_available
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.rules.actions import SCHEMA  # noqa: E402
from tests.cluster.harness import TEST_SETTINGS, Cluster  # noqa: E402

Action = tuple[int, dict[str, Any]]


def settings(lease_ttl: float) -> dict[str, str]:
    return {**TEST_SETTINGS, "ROOM_CREATE_RATE": str(10**9), "WS_FLOOD_MESSAGES": str(10**9),
            "LEASE_TTL": str(lease_ttl)}


def pct(values: list[float], p: float) -> float | None:
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))] if values else None


def children(pid: int) -> list[int]:
    return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


# --- 1. load -------------------------------------------------------------------------------


def load(config: str, workdir: Path, args: argparse.Namespace) -> dict[str, Any]:
    cluster = config != "single"
    count = int(config.removeprefix("cluster")) if cluster else 1
    with Cluster(workdir / config, count, redis=cluster, settings=settings(args.lease_ttl)) as c:
        port = c.proxy_port if cluster else next(iter(c.instances.values())).port
        pids = [i.pid for i in c.instances.values()]
        assert c.proxy is not None
        proxy = [c.proxy.pid, *children(c.proxy.pid)]
        redis = [c.redis_proc.pid] if c.redis_proc else []
        before = [sum(cpu_seconds(p) for p in group) for group in (proxy, redis)]
        out = measure("game", port, pids, args.rooms, args.pace, args.duration, args.procs,
                      args.client)
        after = [sum(cpu_seconds(p) for p in group) for group in (proxy, redis)]
    per_action = [1000 * (b - a) / max(1, out["actions_per_s"] * args.duration)
                  for a, b in zip(before, after, strict=True)]
    return {"config": config, "instances": count, **out,
            # What one core could carry at this CPU cost per action: how the figures scale
            # with cores (instances), once the load generator is not on the same machine.
            "actions_per_core_s": 1000 / out["cpu_ms_per_action"] if out["cpu_ms_per_action"]
            else None,
            "proxy_cpu_ms_per_action": per_action[0] if cluster else 0.0,
            "redis_cpu_ms_per_action": per_action[1]}


# --- 2. failover ---------------------------------------------------------------------------


class Table(Room):
    """bench/load.py's room (8 sockets, one action at a time) that remembers every action
    acknowledged, notices when its instance goes away and reconnects through the proxy."""

    def __init__(self, port: int, code: str, tokens: list[str | None], stats: Stats) -> None:
        super().__init__(port, code, tokens, stats)
        self.acked: list[tuple[int, dict[str, Any], float]] = []  # seat, action, when
        self.unacked: list[Action] = []  # sent; the connection died before the ack
        self.pending: Action | None = None
        self.upstream = ""  # the instance its sockets are on (the proxy's X-Upstream)
        self.lost = asyncio.Event()
        self.byes: Counter[str] = Counter()
        self.reconnects = 0
        self.readers: list[asyncio.Task[None]] = []
        self.failed: str | None = None
        self.done = False  # its game is over: it plays no more
        self.heard = [True] * len(self.tokens)  # a frame arrived since the last hello
        self.closed: list[float] = []  # when a socket was found closed
        self.reopened: list[float] = []  # when all sockets were open again
        self.handshakes: list[float] = []  # when the first socket of each (re)open was taken

    async def open(self, timeout: float = 60.0) -> None:
        """(Re)connect every socket at once, as 8 people would, each resuming from the
        version it last applied."""
        deadline = time.monotonic() + timeout
        first: list[float] = []  # when the first handshake succeeded: the room is claimed

        async def connect(i: int) -> Any:
            ws = await websockets.connect(self.url, max_size=None, compression=None,
                                          open_timeout=10)
            first.append(time.monotonic())
            v = self.versions[i] if self.versions[i] >= 0 else None
            await ws.send(json.dumps({"type": "hello", "token": self.tokens[i], "v": v}))
            return ws

        expected = (OSError, TimeoutError, websockets.WebSocketException)
        while True:
            results = await asyncio.gather(*(connect(i) for i in range(len(self.tokens))),
                                           return_exceptions=True)
            sockets = [r for r in results if not isinstance(r, BaseException)]
            errors = [r for r in results if isinstance(r, BaseException)]
            if not errors:
                break
            await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
            unexpected = [e for e in errors if not isinstance(e, expected)]
            if unexpected:
                raise unexpected[0]
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.url}: no connection within {timeout} s: "
                                   f"{errors[0]!r}") from errors[0]
            await asyncio.sleep(0.2)
        self.handshakes.append(min(first))
        self.sockets = sockets
        self.upstream = (sockets[0].response.headers.get("X-Upstream") or "").split(",")[-1]
        self.lost.clear()
        self.heard = [False] * len(sockets)
        self.readers = [asyncio.create_task(self._read(i)) for i in range(len(sockets))]

    async def reconnect(self) -> None:
        self.reconnects += 1
        await self.close()
        await self.open()
        self.reopened.append(time.monotonic())

    async def close(self) -> None:
        for task in self.readers:
            task.cancel()
        await asyncio.gather(*(ws.close() for ws in self.sockets), return_exceptions=True)

    async def _read(self, i: int) -> None:
        await super()._read(i)
        if not self.lost.is_set():
            self.closed.append(time.monotonic())
        self.lost.set()  # closed by the server (or it died): not after a cancel

    def _on_frame(self, i: int, raw: str) -> None:
        self.heard[i] = True
        if '"ack"' in raw or '"bye"' in raw:
            frame = json.loads(raw)
            if frame["type"] == "ack" and self.pending is not None:
                self.acked.append((*self.pending, time.monotonic()))
                self.pending = None
            elif frame["type"] == "bye":
                self.byes[frame.get("reason", "?")] += 1
        super()._on_frame(i, raw)

    async def step(self, rng: random.Random) -> str:
        """One action: "ok", "refused", "lost" (connection gone), "over" or "idle"."""
        # Until every socket has its view after a (re)connect and all show one version; a
        # socket that resumed already current hears nothing, hence the bound.
        settle = time.monotonic() + 10
        heard = time.monotonic() + 2
        while (min(self.versions) != max(self.versions)
               or not all(self.heard) and time.monotonic() < heard) and not self.lost.is_set():
            if time.monotonic() > settle:
                return "lost"  # a socket stopped receiving: start over
            await asyncio.sleep(0.01)
        if self.lost.is_set():
            return "lost"
        game = self.views[0].get("game") or {}
        if game.get("phase") == "over":
            return "over"
        seat = game.get("current") or 0
        legal = (self.views[seat].get("game") or {}).get("legal") or []
        if not legal:
            return "idle"
        # A copy: later patches edit the view's legal list (and so its dicts) in place.
        action = copy.deepcopy(rng.choice(legal))
        v = self.versions[seat]
        self.target = None
        self.arrived.clear()
        self.pending = (seat, action)
        try:
            await self.sockets[seat].send(json.dumps(
                {"type": "act", "id": v, "v": v, "action": action}))
            waits = [asyncio.create_task(self.arrived.wait()),
                     asyncio.create_task(self.lost.wait())]
            await asyncio.wait(waits, timeout=30, return_when=asyncio.FIRST_COMPLETED)
            for w in waits:
                w.cancel()
        except websockets.ConnectionClosed:
            pass
        if self.pending is None:
            return "ok"
        sent, self.pending = self.pending, None
        if self.lost.is_set() or not self.arrived.is_set():
            self.unacked.append(sent)
            return "lost"
        return "refused"  # an error frame: nothing changed


async def new_table(http: httpx.AsyncClient, port: int, stats: Stats,
                    rng: random.Random) -> Table:
    code, tokens = await make_room(http, "game", rng)
    table = Table(port, code, tokens, stats)
    await table.open()
    return table


async def failover(c: Cluster, args: argparse.Namespace) -> dict[str, Any]:
    stats = Stats()
    rng = random.Random(args.seed)
    tables: list[Table] = []
    stop = asyncio.Event()
    port = c.proxy_port
    async with httpx.AsyncClient(base_url=c.proxy_url, timeout=60) as http:

        async def play(table: Table) -> None:
            while not stop.is_set():
                began = time.monotonic()
                outcome = await table.step(rng)
                if outcome == "lost":
                    try:
                        await table.reconnect()
                    except TimeoutError as e:
                        table.failed = str(e)
                        return
                    continue
                if outcome == "over":  # a finished game: another table takes its place
                    table.done = True
                    await table.close()
                    table = await new_table(http, port, stats, rng)
                    tables.append(table)
                    continue
                if outcome == "refused":  # e.g. stale: the view was behind; choose again
                    await asyncio.sleep(0.05)
                    continue
                # Paced, but a dropped connection is noticed at once (as the browser does).
                pause = max(0.0, 1 / args.pace - (time.monotonic() - began))
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(table.lost.wait(), pause)
            await table.close()

        first = [await new_table(http, port, stats, rng) for _ in range(args.failover_rooms)]
        tables.extend(first)
        players = [asyncio.create_task(play(t)) for t in first]
        samples: list[float] = []
        closed: list[float] = []  # the kill -> a socket of an owned room noticed
        reopened: list[float] = []  # the kill -> its sockets connected to the new owner
        claimed: list[float] = []  # the kill -> the first handshake the new owner accepted
        unrecovered = 0
        await asyncio.sleep(args.settle)
        for k in range(args.kills):
            playing = [t for t in tables if not t.failed and not t.done and t.upstream]
            owners = Counter(t.upstream for t in playing)
            victim = c.by_addr(owners.most_common(1)[0][0]) if owners else c.instances["i1"]
            hit = [t for t in playing if t.upstream == victim.addr]
            before = {id(t): len(t.acked) for t in hit}
            killed = time.monotonic()
            await asyncio.to_thread(c.kill, victim.name, signal.SIGKILL)
            await asyncio.to_thread(c.restart, victim.name)
            deadline = killed + args.failover_timeout
            waiting = list(hit)
            while waiting and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
                for t in list(waiting):
                    if len(t.acked) > before[id(t)] or t.failed:
                        waiting.remove(t)
            back = [t.acked[before[id(t)]][2] - killed for t in hit
                    if len(t.acked) > before[id(t)]]
            samples.extend(back)
            for t in hit:
                closed.extend(at - killed for at in t.closed if at >= killed)
                reopened.extend(at - killed for at in t.reopened if at >= killed)
                claimed.extend(at - killed for at in t.handshakes if at >= killed)
            unrecovered += len(hit) - len(back)
            if not args.json:
                print(f"kill {k + 1}/{args.kills}: {victim.name} owned {len(hit)} rooms; "
                      f"{len(back)} acted again, the last after {max(back, default=0):.2f} s",
                      flush=True)
            await asyncio.sleep(args.settle)
        stop.set()
        await asyncio.wait(players, timeout=60)
        for p in players:
            p.cancel()
    check = verify(c.database_url, tables)
    return {
        "kills": args.kills, "failover_rooms": args.failover_rooms,
        "failover_samples": len(samples), "failover_unrecovered": unrecovered,
        "failover_p50_s": pct(samples, 0.50), "failover_p95_s": pct(samples, 0.95),
        "failover_max_s": max(samples, default=None),
        # Where the time goes: sockets see the close; the new owner claims the room during
        # the first handshake; every socket is back; the first action is acknowledged.
        "failover_closed_p50_s": pct(closed, 0.5),
        "failover_handshake_p50_s": pct(claimed, 0.5),
        "failover_handshake_p95_s": pct(claimed, 0.95),
        "failover_reconnected_p50_s": pct(reopened, 0.5),
        "failover_reconnected_p95_s": pct(reopened, 0.95),
        "acked_actions": sum(len(t.acked) for t in tables), **check,
        "reconnects": sum(t.reconnects for t in tables),
        "byes": dict(sum((t.byes for t in tables), Counter())),
        "failover_errors": stats.error_codes,
        "tables_failed": [t.failed for t in tables if t.failed],
    }


def key(seat: int | None, action: dict[str, Any]) -> tuple[Any, ...]:
    """An action without its informational fields (a step's gain, rush), as stored."""
    required = SCHEMA.get(action.get("type", ""), ((), ()))[0]
    return (seat, action.get("type"), *(json.dumps(action.get(f)) for f in required))


Key = tuple[Any, ...]


def compare(acked: list[Key], unacked: list[Key], stored: list[Key]) -> tuple[int, int, int]:
    """(lost, duplicated, unacked_applied) for one room: acknowledged actions missing from
    what is stored; stored actions that are neither acknowledged nor one of the actions
    whose ack never came (those are `unacked_applied`: stored before the connection died)."""
    blocks = difflib.SequenceMatcher(None, acked, stored, autojunk=False).get_matching_blocks()
    matched = {j for b in blocks for j in range(b.b, b.b + b.size)}
    maybe = Counter(unacked)
    applied = 0
    for j, k in enumerate(stored):
        if j not in matched and maybe[k] > 0:
            maybe[k] -= 1
            applied += 1
    lost = len(acked) - len(matched)
    return lost, len(stored) - len(matched) - applied, applied


def verify(database_url: str, tables: list[Table]) -> dict[str, int]:
    """Every acknowledged action against what the database holds for its room."""
    engine = create_engine(make_url(database_url).set(drivername="postgresql+psycopg"))
    stored: dict[str, list[Key]] = {}
    try:
        with engine.connect() as conn:
            for code, seat, action in conn.execute(text(
                    "select r.code, j.seat, j.action from journal j "
                    "join rooms r on r.id = j.room_id order by r.code, j.seq")):
                stored.setdefault(code, []).append(key(seat, action))
            for code, actions in conn.execute(text("select room_code, actions from games")):
                stored[code] = [key(seat, action) for seat, action in actions]
    finally:
        engine.dispose()
    total = Counter[str]()
    for t in tables:
        acked = [key(seat, action) for seat, action, _ in t.acked]
        journal = stored.get(t.url.rsplit("/", 1)[1].replace("-", ""), [])
        lost, duplicated, applied = compare(acked, [key(*a) for a in t.unacked], journal)
        total.update(lost_actions=lost, duplicated_actions=duplicated, unacked_applied=applied)
        if lost or duplicated:
            at = next((i for i, (a, b) in enumerate(zip(acked, journal, strict=False)) if a != b),
                      min(len(acked), len(journal)))
            print(f"{t.url}: acked {len(acked)}, stored {len(journal)}, lost {lost}, "
                  f"duplicated {duplicated}; from #{at}: acked {acked[at:at + 3]}, "
                  f"stored {journal[at:at + 3]}", file=sys.stderr)
    return {k: total[k] for k in ("lost_actions", "duplicated_actions", "unacked_applied")}


# --- the run -------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rooms", type=int, default=100, help="rooms in the load part")
    parser.add_argument("--pace", type=float, default=1.0, help="actions per second per room")
    parser.add_argument("--duration", type=float, default=30.0, help="measured seconds")
    parser.add_argument("--procs", type=int, default=2, help="load client processes")
    parser.add_argument("--client", choices=["node", "python"],
                        default="node" if node_available() else "python",
                        help="load generator of the load part (node: bench/node, make bench)")
    parser.add_argument("--configs", default="single,cluster2",
                        help="load runs: single, cluster1, cluster2, ... (comma-separated)")
    parser.add_argument("--kills", type=int, help="default 20 (2 with --smoke); 0: no failover")
    parser.add_argument("--failover-rooms", type=int, default=20)
    parser.add_argument("--failover-timeout", type=float, default=30.0)
    parser.add_argument("--settle", type=float, default=2.0, help="seconds of play between kills")
    parser.add_argument("--lease-ttl", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=10)
    parser.add_argument("--smoke", action="store_true",
                        help="tiny: 2 rooms for 2 s, 2 kills over 2 rooms")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.smoke:
        args.rooms, args.duration, args.procs = 2, 2.0, 1
        args.failover_rooms, args.settle = 2, 1.0
    if args.kills is None:
        args.kills = 2 if args.smoke else 20
    configs = [c for c in args.configs.split(",") if c]
    with tempfile.TemporaryDirectory(prefix="bench-cluster-") as tmp:
        workdir = Path(tmp)
        loads = {config: load(config, workdir, args) for config in configs}
        if loads and not args.json:
            print_loads(args, loads)
        fail: dict[str, Any] = {"lost_actions": None, "duplicated_actions": None,
                                "failover_p50_s": None, "failover_p95_s": None}
        if args.kills:
            with Cluster(workdir / "failover", 2, settings=settings(args.lease_ttl)) as c:
                fail = asyncio.run(failover(c, args))
    result = {"load": loads, **fail}
    single, clustered = loads.get("single"), loads.get("cluster2")
    if single and clustered:
        result["cluster_cpu_ratio"] = (clustered["cpu_ms_per_action"]
                                       / max(1e-9, single["cpu_ms_per_action"]))
    if args.json:
        print(json.dumps(result))
        return
    for name in ("acked_actions", "lost_actions", "duplicated_actions", "unacked_applied",
                 "failover_samples", "failover_unrecovered", "failover_p50_s",
                 "failover_p95_s", "failover_max_s", "failover_closed_p50_s",
                 "failover_handshake_p50_s", "failover_handshake_p95_s",
                 "failover_reconnected_p50_s", "failover_reconnected_p95_s", "reconnects",
                 "byes", "failover_errors", "cluster_cpu_ratio"):
        value = result.get(name)
        print(f"{name:<28}{value:.3f}" if isinstance(value, float) else f"{name:<28}{value}")


def print_loads(args: argparse.Namespace, loads: dict[str, dict[str, Any]]) -> None:
    print(f"load: rooms={args.rooms} pace={args.pace}/s/room measured={args.duration}s "
          f"client={args.client} client_procs={args.procs} journal=postgresql")
    names = list(loads)
    print(f"{'figure':<24}" + "".join(f"{n:>12}" for n in names))
    for k in ("actions_per_s", "p50_ms", "p95_ms", "p99_ms", "server_cpu_pct",
              "cpu_ms_per_action", "actions_per_core_s", "proxy_cpu_ms_per_action",
              "redis_cpu_ms_per_action", "rss_mib", "errors"):
        print(f"{k:<24}" + "".join(f"{loads[n][k] or 0:>12.2f}" for n in names))
    for n in names:
        if loads[n]["error_codes"]:
            print(f"error codes ({n}): {loads[n]['error_codes']}")


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        main()

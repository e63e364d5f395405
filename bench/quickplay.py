"""Quick play figures (issue 46):

1. Time from Play now to a seated table, with 2 and with 4 players (median over rounds): a
   real server (`python -m server`, SQLite or --database), N lobby sockets; N-1 players press
   Play now, then the last one does, and the time runs from that last press until every one
   of the N has its `seated` frame (its table and seat token).
2. The matcher's CPU per pairing with 1,000 seekers waiting (server.quickplay.matcher.pair,
   process time): a pass that seats a crowd of 1,000 (CPU / tables opened), and the steady
   state: 1,000 wait who cannot be seated yet (rated, ratings far apart, no wait) and one
   newcomer makes a pair (CPU of that whole pass, i.e. per pairing).
3. The same steady-state pass through the database (Quickplay.match: read the 1,000 rows,
   match, claim, open the table), on SQLite (and PostgreSQL with --database).

    .venv/bin/python bench/quickplay.py [--rounds 15] [--database postgresql+asyncpg://...]
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
from datetime import UTC, datetime, timedelta
from pathlib import Path

import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from server.config import Settings  # noqa: E402
from server.db.migrate import upgrade_async  # noqa: E402
from server.db.models import Seek  # noqa: E402
from server.db.session import make_engine, session_factory  # noqa: E402
from server.quickplay import Quickplay  # noqa: E402
from server.quickplay.matcher import SIZES, Seeker, pair  # noqa: E402
from server.rooms import RoomManager  # noqa: E402
from tests.serving import free_port, launch, stop, wait_ready  # noqa: E402


async def one_table(base: str, players: int) -> float:
    url = base.replace("http", "ws", 1) + "/lobby/socket"
    sockets = [await websockets.connect(url) for _ in range(players)]
    try:
        async def seated(ws: websockets.ClientConnection) -> None:
            while json.loads(await ws.recv())["type"] != "seated":
                pass

        async def ask(ws: websockets.ClientConnection, name: str) -> None:
            await ws.send(json.dumps({"type": "play", "size": players, "name": name}))
            while json.loads(await ws.recv())["type"] != "queued":
                pass

        for i, ws in enumerate(sockets[:-1]):
            await ask(ws, f"W{i}")
        waits = [asyncio.create_task(seated(ws)) for ws in sockets[:-1]]
        start = time.perf_counter()
        await sockets[-1].send(json.dumps({"type": "play", "size": players, "name": "Last"}))
        await asyncio.gather(seated(sockets[-1]), *waits)
        return time.perf_counter() - start
    finally:
        for ws in sockets:
            await ws.close()


def seated_times(rounds: int, database: str | None) -> dict[int, list[float]]:
    port = free_port()
    with tempfile.TemporaryDirectory() as data:
        env = {"PORT": str(port), "LOG_LEVEL": "error", "ROOM_CREATE_RATE": str(10**9),
               "SEEK_RATE": str(10**6), "SEEKS_PER_ADDRESS": "100", "BOT_WORKERS": "0",
               "DATABASE_URL": database or f"sqlite+aiosqlite:///{data}/bench.db",
               "JOURNAL_FALLBACK_PATH": f"{data}/fallback.jsonl"}
        proc = launch(env, stderr=None)
        base = f"http://127.0.0.1:{port}"
        try:
            wait_ready(proc, base)

            async def run() -> dict[int, list[float]]:
                return {n: [await one_table(base, n) for _ in range(rounds)] for n in (2, 4)}
            return asyncio.run(run())
        finally:
            stop(proc)


def crowd(n: int, rng: random.Random) -> list[Seeker]:
    return [Seeker(i, rng.choice(((2,), (3,), (4,), SIZES)), rng.choice(("realtime", "turn_based")),
                   rng.random() < 0.5, rng.randint(900, 2100), rng.uniform(0, 60))
            for i in range(1, n + 1)]


def stuck(n: int) -> list[Seeker]:
    """n rated seekers 250 apart, none waited: nobody fits anybody yet."""
    return [Seeker(i, (2,), "realtime", True, i * 250, 0.0) for i in range(1, n + 1)]


def cpu(work, repeat: int) -> float:  # noqa: ANN001
    start = time.process_time()
    for _ in range(repeat):
        work()
    return (time.process_time() - start) / repeat


async def db_pass(url: str, waiting: int, repeat: int) -> float:
    """Seconds (wall, one process) of one Quickplay.match pass over `waiting` stuck rows plus
    a newcomer pair, median of `repeat`."""
    await upgrade_async(url)
    engine = make_engine(url)
    sessions = session_factory(engine)
    settings = Settings(_env_file=None, INSTANCE_ID="bench", TEST_FIXED_SEED=7)
    now = datetime.now(UTC)
    quick = Quickplay(settings, RoomManager(settings), lambda: now, sessions)
    times = []
    try:
        async with sessions() as session, session.begin():
            await session.execute(Seek.__table__.delete())
            for i in range(waiting):
                session.add(Seek(player=f"g:{i}", name=f"S{i}", rating=i * 250, client=f"c{i}",
                                 size=2, mode="realtime", rated=True, token_hash="0" * 64,
                                 instance="bench", created_at=now, alive_at=now))
        for r in range(repeat):
            async with sessions() as session, session.begin():
                for k in range(2):
                    session.add(Seek(player=f"n:{r}:{k}", name="N", rating=10**6, client="n",
                                     size=2, mode="realtime", rated=True, token_hash="0" * 64,
                                     instance="bench", created_at=now - timedelta(seconds=1),
                                     alive_at=now))
            start = time.perf_counter()
            assert await quick.match() == 1
            times.append(time.perf_counter() - start)
        return statistics.median(times)
    finally:
        async with sessions() as session, session.begin():
            await session.execute(Seek.__table__.delete())
        await engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15, help="tables timed per size")
    parser.add_argument("--waiting", type=int, default=1000, help="seekers in the queue")
    parser.add_argument("--database", help="a PostgreSQL URL (default: SQLite files)")
    args = parser.parse_args()

    times = seated_times(args.rounds, args.database)
    for n, values in times.items():
        ms = sorted(v * 1000 for v in values)
        print(f"Play now -> seated, {n} players: median {statistics.median(ms):.1f} ms "
              f"(min {ms[0]:.1f}, max {ms[-1]:.1f}, {len(ms)} tables)")

    rng = random.Random(46)
    seekers = crowd(args.waiting, rng)
    tables = len(pair(seekers))
    per = cpu(lambda: pair(seekers), 20) / max(1, tables)
    print(f"matcher, a crowd of {args.waiting} seated at once: {tables} tables, "
          f"{per * 1e6:.1f} us CPU per pairing")
    waiting = stuck(args.waiting)
    newcomers = [Seeker(10**6, (2,), "realtime", True, 10**7, 1.0),
                 Seeker(10**6 + 1, (2,), "realtime", True, 10**7, 0.5)]
    assert len(pair(waiting + newcomers)) == 1 and not pair(waiting)
    steady = cpu(lambda: pair(waiting + newcomers), 50)
    print(f"matcher, {args.waiting} waiting + 1 new pair: {steady * 1e3:.2f} ms CPU per pairing "
          f"(one whole pass)")
    with tempfile.TemporaryDirectory() as data:
        url = args.database or f"sqlite+aiosqlite:///{data}/pass.db"
        seconds = asyncio.run(db_pass(url, args.waiting, 5))
    kind = "PostgreSQL" if args.database else "SQLite"
    print(f"matcher pass through {kind}, {args.waiting} waiting + 1 new pair: "
          f"{seconds * 1e3:.1f} ms per pairing (median, wall)")


if __name__ == "__main__":
    main()

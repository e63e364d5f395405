"""The journal alone: rooms each record one action per round, all at once (group commit).

    .venv/bin/python bench/journal.py                     # 100 rooms x 50 rounds, SQLite
    .venv/bin/python bench/journal.py --rooms 1000 --database-url \\
        postgresql+asyncpg://postgres@127.0.0.1/bench

Prints the actions made durable per second, the transactions and their size, the commit
time and the journal's CPU per action (this process: the event loop and the driver's
threads), and each record's latency from hand-over to durable. `--busy` keeps the event
loop busy meanwhile (pure Python work in 2 ms slices, as a loaded server's loop is), which
is when the driver's threads have to wait for the GIL.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.db.journal import Journal  # noqa: E402
from server.db.migrate import upgrade_async  # noqa: E402
from server.db.models import utcnow  # noqa: E402
from server.db.records import NewRoom  # noqa: E402
from server.db.session import make_engine  # noqa: E402


async def keep_busy(stop: asyncio.Event, slice_s: float = 0.002) -> None:
    while not stop.is_set():
        end = time.perf_counter() + slice_s
        while time.perf_counter() < end:
            pass
        await asyncio.sleep(0)


async def run(url: str, fallback: Path, rooms: int, rounds: int,
              busy: bool = False) -> dict[str, float]:
    await upgrade_async(url)
    engine = make_engine(url)
    journal = Journal(engine, fallback)
    commits: list[tuple[int, float]] = []
    journal.on_commit = lambda size, seconds: commits.append((size, seconds))
    await journal.start()
    stamp = time.strftime("%H%M%S")
    codes = [f"{stamp[-3:]}{i:05d}" for i in range(rooms)]
    for code in codes:
        await journal.room_created(NewRoom(code, {"players": 2}, 1, 2, "host", utcnow()))
        await journal.room_started(code, options={"players": 2}, seed=1)
    commits.clear()
    latencies: list[float] = []

    async def one(code: str, seq: int) -> None:
        start = time.perf_counter()
        await journal.record(code, seq, 0, {"type": "place", "cell": seq % 16})
        latencies.append(time.perf_counter() - start)

    stop = asyncio.Event()
    burner = asyncio.ensure_future(keep_busy(stop)) if busy else None
    wall, cpu = time.perf_counter(), time.process_time()
    for seq in range(1, rounds + 1):
        await asyncio.gather(*(one(code, seq) for code in codes))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    stop.set()
    if burner is not None:
        await burner
    await journal.stop()
    await engine.dispose()
    actions = rooms * rounds
    latencies.sort()
    return {
        "actions_per_s": actions / wall,
        "transactions": len(commits),
        "mean_batch": statistics.mean(size for size, _ in commits),
        "commit_p50_ms": 1000 * statistics.median(s for _, s in commits),
        # With --busy, the burner's CPU is in it too.
        "cpu_us_per_action": 1e6 * cpu / actions,
        "latency_p50_ms": 1000 * latencies[len(latencies) // 2],
        "latency_p99_ms": 1000 * latencies[int(0.99 * (len(latencies) - 1))],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--database-url", help="default: a fresh SQLite file")
    parser.add_argument("--busy", action="store_true", help="keep the event loop busy")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database_url or f"sqlite+aiosqlite:///{tmp}/journal.db"
        figures = asyncio.run(run(url, Path(tmp) / "fallback.jsonl", args.rooms, args.rounds,
                                 args.busy))
    print(f"journal={url.split(':')[0]} rooms={args.rooms} rounds={args.rounds} "
          f"busy={args.busy}")
    for key, value in figures.items():
        print(f"{key:<20}{value:>12.2f}")


if __name__ == "__main__":
    main()

"""How long the journal stalls when SQLite is locked by another process, and how fast it
copies the fallback file back. Prints figures; asserts nothing. Run:
    .venv/bin/python bench/outage.py [--timeout 2] [--writes 2000]
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.db.journal import Journal  # noqa: E402
from server.db.migrate import upgrade_async  # noqa: E402
from server.db.session import make_engine  # noqa: E402
from tests.db.helpers import new_room  # noqa: E402


async def main(timeout: float, writes: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "db.sqlite"
        url = f"sqlite+aiosqlite:///{path}"
        await upgrade_async(url)
        engine = make_engine(url, connect_timeout=timeout)
        journal = Journal(engine, Path(tmp) / "fallback.jsonl", write_timeout=timeout,
                          retry_interval=0.2, retry_max=1.0)
        await journal.start()
        await journal.room_created(new_room("BENCH001", datetime.now(UTC)))
        lock = sqlite3.connect(path, isolation_level=None)
        lock.execute("BEGIN EXCLUSIVE")
        t = time.perf_counter()
        await journal.action_accepted("BENCH001", 1, 0, {"type": "step"})
        print(f"first write under the lock: {time.perf_counter() - t:.3f}s "
              f"(DB_TIMEOUT {timeout}s), degraded={journal.degraded}")
        lat = []
        for seq in range(2, writes + 2):
            t = time.perf_counter()
            await journal.action_accepted("BENCH001", seq, 0, {"type": "step", "n": seq})
            lat.append(time.perf_counter() - t)
        print(f"{writes} writes while degraded (fallback file, one at a time): median "
              f"{statistics.median(lat) * 1000:.2f} ms, max {max(lat) * 1000:.2f} ms")
        lock.execute("COMMIT")
        lock.close()
        t = time.perf_counter()
        while journal.degraded:
            await asyncio.sleep(0.005)
        print(f"lock released -> {writes + 1} writes copied back and degraded cleared in "
              f"{time.perf_counter() - t:.3f}s (includes up to one retry interval)")
        await journal.stop()
        await engine.dispose()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--timeout", type=float, default=2.0)
    parser.add_argument("--writes", type=int, default=2000)
    args = parser.parse_args()
    asyncio.run(main(args.timeout, args.writes))

"""How long an fsync takes on the disk of a directory: what every journal commit waits for.

    .venv/bin/python bench/fsync.py                       # ./data, 30 s
    .venv/bin/python bench/fsync.py --dir /tmp --duration 60 --json

An action is acknowledged only once the journal's commit is on disk (synchronous=FULL),
so the tail of the journal stage in bench/load.py can be no better than this tail. It
appends 4 KiB and fsyncs, about as often as the journal commits with 1,000 rooms playing
(every `--every` seconds), and prints the fsync latency: p50, p99, p99.9, max, and how many
took longer than 30 ms. A shared virtual disk can have stalls of hundreds of ms that no
server setting removes.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

SLOW = 0.030  # seconds: an fsync this long shows in an action's latency


def measure(directory: Path, duration: float, every: float) -> dict[str, float]:
    directory.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(dir=directory, prefix="fsync-bench-")
    times: list[float] = []
    try:
        end = time.monotonic() + duration
        while time.monotonic() < end:
            os.write(fd, b"x" * 4096)
            start = time.perf_counter()
            os.fsync(fd)
            times.append(time.perf_counter() - start)
            time.sleep(every)
    finally:
        os.close(fd)
        os.remove(name)
    times.sort()

    def ms(q: float) -> float:
        return 1000 * times[min(len(times) - 1, int(q * len(times)))]

    return {"fsyncs": len(times), "p50_ms": ms(0.5), "p99_ms": ms(0.99),
            "p999_ms": ms(0.999), "max_ms": 1000 * times[-1],
            "slow": sum(t > SLOW for t in times)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dir", type=Path, default=Path("data"))
    parser.add_argument("--duration", type=float, default=30.0, help="seconds")
    parser.add_argument("--every", type=float, default=0.003, help="seconds between fsyncs")
    parser.add_argument("--json", action="store_true", help="one JSON object, last line")
    args = parser.parse_args()
    figures = measure(args.dir, args.duration, args.every)
    print(f"{args.dir}: {figures['fsyncs']} fsyncs of 4 KiB appends, p50 "
          f"{figures['p50_ms']:.2f} ms, p99 {figures['p99_ms']:.2f}, p99.9 "
          f"{figures['p999_ms']:.2f}, max {figures['max_ms']:.1f}; "
          f"{figures['slow']} took over {SLOW * 1000:.0f} ms")
    if args.json:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()

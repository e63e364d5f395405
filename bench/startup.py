"""What a server start costs in CPU: importing server.main, and `python -m server` up to its
first /healthz answer (on a new SQLite file, so the migrations run as in most tests).

Several source trees are compared in alternation (the machine is shared: one tree's runs
are never all in a quieter minute), in CPU seconds (user + system), not wall time:

    python bench/startup.py [--runs 10] TREE [TREE ...]

Each TREE is a checkout's root (run with its sources first on sys.path); prints the median
and the spread of each figure per tree.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.ports import free_port  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def import_cpu(tree: Path) -> float:
    """CPU seconds of `python -c 'import server.main'` run from `tree`."""
    before = children_cpu()
    subprocess.run([sys.executable, "-c", "import server.main"], cwd=tree, check=True)
    return children_cpu() - before


def process_cpu(pid: int) -> float:
    """CPU seconds so far of `pid` and of its live children (the bot workers, if started)."""
    total = 0.0
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            total += process_cpu(int(child))
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime


def start_cpu(tree: Path, scratch: Path) -> tuple[float, float]:
    """CPU seconds and wall seconds of `python -m server` from `tree` up to its first
    /healthz answer (polled every 10 ms, with the poller's own CPU left out)."""
    port = free_port()
    database = scratch / f"{port}.db"
    env = {**os.environ, "HOST": "127.0.0.1", "PORT": str(port), "LOG_LEVEL": "warning",
           "DATABASE_URL": f"sqlite+aiosqlite:///{database}",
           "JOURNAL_FALLBACK_PATH": f"{database}.fallback.jsonl"}
    began = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "server"], cwd=tree, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        with httpx.Client() as client:
            while True:
                if proc.poll() is not None:
                    raise RuntimeError(f"{tree}: server exited with {proc.returncode}")
                try:
                    if client.get(f"http://127.0.0.1:{port}/healthz").status_code == 200:
                        break
                except httpx.TransportError:
                    time.sleep(0.01)
        return process_cpu(proc.pid), time.monotonic() - began
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trees", nargs="+", type=Path)
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    figures: dict[Path, dict[str, list[float]]] = {
        tree: {"import cpu": [], "start cpu": [], "start wall": []} for tree in args.trees}
    with tempfile.TemporaryDirectory() as scratch:
        for _ in range(args.runs):
            for tree in args.trees:  # alternated: each run visits every tree
                figures[tree]["import cpu"].append(import_cpu(tree))
                cpu, wall = start_cpu(tree, Path(scratch))
                figures[tree]["start cpu"].append(cpu)
                figures[tree]["start wall"].append(wall)
    for tree, series in figures.items():
        print(tree)
        for name, values in series.items():
            print(f"  {name:10s} median {statistics.median(values):.2f} s"
                  f"  (min {min(values):.2f}, max {max(values):.2f}, n={len(values)})")


if __name__ == "__main__":
    main()

"""bench/memory.py stays runnable: a tiny traced run against the game server, read back from
its --json line. Nothing about time or size is asserted, only that every figure is there
and the allocation sites were listed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_bench_load import bench_load

ROOT = Path(__file__).resolve().parent.parent


def test_a_tiny_memory_run_reports_per_room_figures_and_allocation_sites() -> None:
    if not bench_load().node_available():
        pytest.skip("node or bench/node/node_modules missing (make bench installs them)")
    done = subprocess.run(
        [sys.executable, "bench/memory.py", "--rooms", "2", "--top", "3", "--frames", "2",
         "--json"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.strip().splitlines()
    result = json.loads(lines[-1])
    assert result["rooms"] == 2
    assert set(result["kib_per_room"]) >= {"rss", "traced"}  # malloc: glibc only
    assert result["kib_per_room"]["traced"] > 0
    assert sum("KiB/room" in line for line in lines) == 3

"""bench/fsync.py stays runnable: a tiny run prints every figure (never timed) and leaves
no file behind in the directory it measured."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_a_tiny_fsync_run_prints_every_figure_and_cleans_up(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "bench/fsync.py", "--dir", str(tmp_path), "--duration", "0.2",
         "--json"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert set(figures) == {"fsyncs", "p50_ms", "p99_ms", "p999_ms", "max_ms", "slow"}
    assert figures["fsyncs"] > 0
    assert figures["p50_ms"] <= figures["p99_ms"] <= figures["p999_ms"] <= figures["max_ms"]
    assert list(tmp_path.iterdir()) == []

"""bench/journal.py stays runnable: tiny runs on SQLite print every figure (never timed)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_a_tiny_journal_run_prints_every_figure() -> None:
    done = subprocess.run([sys.executable, "bench/journal.py", "--rooms", "3", "--rounds", "2"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    figures = dict(line.split() for line in done.stdout.splitlines()[1:])
    assert set(figures) == {"actions_per_s", "transactions", "mean_batch", "commit_p50_ms",
                            "cpu_us_per_action", "latency_p50_ms", "latency_p99_ms"}
    assert float(figures["transactions"]) == 2 and float(figures["mean_batch"]) == 3


def test_a_tiny_run_of_whole_games_prints_the_writer_threads_cpu() -> None:
    done = subprocess.run([sys.executable, "bench/journal.py", "--rooms", "2", "--games", "1"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    figures = dict(line.split() for line in done.stdout.splitlines()[1:])
    assert set(figures) == {"games", "actions", "actions_per_s", "transactions", "mean_batch",
                            "commit_p50_ms", "cpu_us_per_action", "writer_cpu_us_per_action"}
    assert float(figures["games"]) == 2 and float(figures["actions"]) > 2

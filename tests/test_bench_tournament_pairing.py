"""bench/tournament_pairing.py stays runnable: a tiny run prints every figure (never timed)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_a_tiny_pairing_run_prints_every_figure() -> None:
    done = subprocess.run(
        [sys.executable, "bench/tournament_pairing.py", "--players", "20", "--rounds", "2"],
        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    for size in (4, 3, 2):
        assert f"Swiss, 20 players at {size}-player tables, 2 rounds" in done.stdout
    assert "round robin, 16 players at 4-player tables" in done.stdout

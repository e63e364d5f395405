"""bench/quickplay.py stays runnable: a tiny run prints every figure (never timed)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_a_tiny_quickplay_run_prints_every_figure() -> None:
    done = subprocess.run(
        [sys.executable, "bench/quickplay.py", "--rounds", "1", "--waiting", "50"],
        cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-3000:]
    out = done.stdout
    for line in ("Play now -> seated, 2 players: median", "Play now -> seated, 4 players: median",
                 "matcher, a crowd of 50 seated at once:", "matcher, 50 waiting + 1 new pair:",
                 "matcher pass through SQLite, 50 waiting + 1 new pair:"):
        assert line in out, out

"""bench/hint_flood.py stays runnable: a tiny run prints both rows of figures and the
attacker's answers (never timed)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_a_tiny_hint_flood_run_prints_both_rows() -> None:
    done = subprocess.run(
        [sys.executable, "bench/hint_flood.py", "--seconds", "3", "--rooms", "2"],
        cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert any(line.startswith("greedy bot table alone:") for line in lines), done.stdout
    assert any("2-room hint attack" in line and "gaps" in line for line in lines), done.stdout
    assert any("the attacker's answers" in line and "'hint'" in line for line in lines), \
        done.stdout

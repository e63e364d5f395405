"""bench/room_commit.py stays runnable: a tiny run prints a row of figures per player count
(nothing about time is asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_a_tiny_room_commit_run_prints_rules_room_and_commit_per_action() -> None:
    done = subprocess.run(
        [sys.executable, "bench/room_commit.py", "--games", "1", "--players", "2", "3",
         "--spectators", "1"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.strip().splitlines()
    assert lines[1].split() == ["players", "actions", "rules", "room", "commit", "act"]
    rows = [line.split() for line in lines[2:]]
    assert [row[0] for row in rows] == ["2", "3"]
    assert all(int(row[1]) > 0 and len([float(x) for x in row[2:]]) == 4 for row in rows)

"""bench/bots.py stays runnable: a tiny run writes every figure (never timed)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_a_tiny_bots_run_writes_its_json(tmp_path: Path) -> None:
    out = tmp_path / "bots.json"
    done = subprocess.run(
        [sys.executable, "bench/bots.py", "--games", "2", "--players", "2", "4",
         "--budget", "0.01", "--workers", "1", "--out", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(out.read_text())
    assert set(result["tables"]) == {"2", "4"}
    for table in result["tables"].values():
        (pair,) = table["pairings"]
        assert pair["bots"] == ["expert", "greedy"] and pair["games"] == 2
        assert set(table["target"]) == {"bot", "win_rate", "met", "met_at_95"}
        assert all("ci95" in row and "cpu_per_decision" in row for row in pair["rows"])

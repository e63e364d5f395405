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


def test_a_paired_run_compares_two_settings_on_the_same_deals(tmp_path: Path) -> None:
    """bench/bots_paired.py: two logs of one seed hold the same deals; `compare` pairs them."""
    logs = []
    changed = ["--set", "MARGIN=0.5", "--style", "opponent_rescues=False"]  # a Style field too
    for name, settings in (("a", []), ("b", changed)):
        log = tmp_path / f"{name}.jsonl"
        done = subprocess.run(
            [sys.executable, "bench/bots_paired.py", "play", "--games", "2", "--budget",
             "0.01", "--seed", "5", "--bots", "expert,expert-1", *settings, "--log", str(log)],
            cwd=ROOT, capture_output=True, text=True, timeout=120,
        )
        assert done.returncode == 0, done.stderr[-3000:]
        logs.append(log)
    a, b = ([json.loads(line) for line in log.read_text().splitlines()] for log in logs)
    assert [(o["seed"], o["lineup"]) for o in a] == [(o["seed"], o["lineup"]) for o in b]
    assert b[0]["settings"] == {"MARGIN": 0.5, "Style.opponent_rescues": False}
    assert sorted(a[0]["lineup"]) == ["expert", "expert-1"]
    done = subprocess.run(
        [sys.executable, "bench/bots_paired.py", "compare", *map(str, logs)],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "2 paired games" in done.stdout and "B - A:" in done.stdout
    longer = subprocess.run(  # a longer run on the same log plays only the games it lacks
        [sys.executable, "bench/bots_paired.py", "play", "--games", "4", "--budget", "0.01",
         "--seed", "5", "--bots", "expert,expert-1", "--log", str(logs[0])],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert longer.returncode == 0, longer.stderr[-3000:]
    kept = [json.loads(line) for line in logs[0].read_text().splitlines()]
    assert [o["index"] for o in kept] == [0, 1, 2, 3] and kept[:2] == a


def test_an_interleaved_run_keeps_both_sizes_and_goes_on_where_it_stopped(tmp_path: Path) -> None:
    log, out = tmp_path / "games.jsonl", tmp_path / "bots.json"
    command = [sys.executable, "bench/bots.py", "--games", "2", "--players", "2", "4",
               "--budget", "0.01", "--log", str(log), "--interleave", "--out", str(out)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    games = [json.loads(line) for line in log.read_text().splitlines()]
    assert [(o["players"], o["index"]) for o in games] == [(2, 0), (4, 0), (2, 1), (4, 1)]
    result = json.loads(out.read_text())
    assert result["seed"] == 2027 and set(result["tables"]) == {"2", "4"}
    again = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stderr[-3000:]
    assert len(log.read_text().splitlines()) == 4  # nothing played twice


def test_the_served_check_replays_a_logged_game(tmp_path: Path) -> None:
    """bench/bots_served.py replays a paired run's game, its settings too (issue 48)."""
    log = tmp_path / "a.jsonl"
    done = subprocess.run(
        [sys.executable, "bench/bots_paired.py", "play", "--games", "1", "--budget", "0.01",
         "--seed", "5", "--bots", "expert,expert-1", "--style", "rollout_rush=2",
         "--log", str(log)],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    done = subprocess.run(
        [sys.executable, "bench/bots_served.py", str(log), "--games", "1"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "1 games" in done.stdout and "rollout with 2 rush" in done.stdout
    assert "expert-1" in done.stdout

"""bench/cluster.py runs end to end in its tiny mode and prints its JSON figures; nothing
about time is asserted, only that nothing acknowledged was lost or duplicated."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from types import ModuleType

from server.cluster.dev import ROOT


def test_the_cluster_benchmark_smoke_run_loses_and_duplicates_nothing(
    cluster_parts: None,
) -> None:
    done = subprocess.run(
        [sys.executable, "bench/cluster.py", "--smoke", "--json"], cwd=ROOT,
        capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    for name in ("lost_actions", "duplicated_actions", "failover_p50_s", "failover_p95_s"):
        assert name in result
    assert set(result["load"]) == {"single", "cluster2"}
    assert all(r["actions_per_s"] > 0 and r["errors"] == 0 for r in result["load"].values())
    assert result["kills"] == 2 and result["failover_unrecovered"] == 0
    assert result["acked_actions"] > 0
    assert (result["lost_actions"], result["duplicated_actions"]) == (0, 0), done.stderr[-3000:]


def bench_cluster() -> ModuleType:
    """bench/cluster.py as a module (it imports bench/load.py as `load`)."""
    sys.path.insert(0, str(ROOT / "bench"))
    spec = importlib.util.spec_from_file_location("bench_cluster", ROOT / "bench" / "cluster.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_benchmark_counts_lost_duplicated_and_unacknowledged_stored_actions() -> None:
    compare = bench_cluster().compare
    a, b, c, d = ("a",), ("b",), ("c",), ("d",)
    assert compare([a, b, c], [], [a, b, c]) == (0, 0, 0)
    assert compare([a, b, c], [], [a, c]) == (1, 0, 0)  # b acknowledged, never stored
    assert compare([a, b, c], [], [a, b, b, c]) == (0, 1, 0)  # b stored twice
    assert compare([a, b, c], [d], [a, b, d, c]) == (0, 0, 1)  # d's ack was lost in a crash
    assert compare([a, b, c], [d], [a, b, d, d, c]) == (0, 1, 1)
    assert compare([a, b], [], [a, b, d]) == (0, 1, 0)  # d: nobody sent it


def test_actions_are_compared_without_their_informational_fields() -> None:
    key = bench_cluster().key
    sent = {"type": "step", "cell": "r2c2", "gain": {"milk": 1}, "rush": False}
    assert key(1, sent) == key(1, {"type": "step", "cell": "r2c2"})
    assert key(1, sent) != key(2, {"type": "step", "cell": "r2c2"})
    assert key(0, {"type": "pour", "ingredient": "milk", "cup": 0}) != key(
        0, {"type": "pour", "ingredient": "milk", "cup": 1})

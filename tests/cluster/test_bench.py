"""bench/cluster.py runs end to end in its tiny mode and prints its JSON figures; nothing
about time is asserted, only that nothing acknowledged was lost or duplicated."""

from __future__ import annotations

import json
import subprocess
import sys

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

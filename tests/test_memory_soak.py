"""Thousands of real websockets opened and closed: the server ends near where it started.

Asserts on memory only (never on time). Before the periodic full collection
(server/memory.py) each closed socket kept ~8 KB of cyclic garbage for good.
"""

from __future__ import annotations

from bench.soak import ROOT, soak

CONNECTIONS = 2000
WARMUP = 400


def test_churning_websockets_gives_the_memory_back():
    figures = soak(ROOT, CONNECTIONS, WARMUP, rooms=10, parallel=40, idle=1.5,
                   extra={"GC_INTERVAL": "0.5"}, rounds=2)
    shown = {k: f"{v / 2**20:.1f} MiB" for k, v in figures.items()}
    # A leak grows with every round (as before: ~16 MiB a round here); allocator slack
    # fills once. So the second round of churn must add far less than a leak would.
    assert figures["idle"] - figures["warm"] < 16 * 2**20, shown
    assert figures["idle"] - figures["churned1"] < 6 * 2**20, shown

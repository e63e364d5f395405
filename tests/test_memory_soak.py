"""Thousands of real websockets opened and closed: the server ends near where it started.

Asserts on memory only (never on time). Before the periodic full collection
(server/memory.py) each closed socket kept ~8 KB of cyclic garbage for good; before malloc's
arenas were limited (same module), bursts of connections left RSS creeping up by ~6 MiB a
round of churn for several rounds, which made this test fail now and then.
"""

from __future__ import annotations

from bench.soak import ROOT, soak

CONNECTIONS = 2000
WARMUP = 400
ROUNDS = 3


def test_churning_websockets_gives_the_memory_back():
    figures = soak(ROOT, CONNECTIONS, WARMUP, rooms=10, parallel=40, idle=1.5,
                   extra={"GC_INTERVAL": "0.5"}, rounds=ROUNDS)
    shown = {k: f"{v / 2**20:.1f} MiB" for k, v in figures.items() if not k.startswith("gc")}
    # Without the periodic collection every round of churn kept ~16 MiB for good, so three
    # rounds kept ~48 MiB. What the allocator keeps is bounded instead: measured over 14
    # rounds, it rose by at most 14 MiB once and then stayed flat.
    assert figures["idle"] - figures["warm"] < 24 * 2**20, shown

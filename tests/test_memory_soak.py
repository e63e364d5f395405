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
                   extra={"GC_INTERVAL": "0.5"})
    grown = figures["idle"] - figures["warm"]
    # Leaking as before would be ~16 MiB here; what remains is allocator slack.
    assert grown < 8 * 2**20, {k: f"{v / 2**20:.1f} MiB" for k, v in figures.items()}

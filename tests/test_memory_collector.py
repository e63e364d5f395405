"""The periodic collector (server/memory.py): short passes over the young heap, survivors
frozen, a full pass once the heap has grown. Run in a child process, since it
freezes the heap of the process it runs in."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import gc, json, weakref
from server.memory import Collector, tune_collector

class Node:
    pass

def cycle():
    a, b = Node(), Node()
    a.other, b.other = b, a
    return a

tune_collector()
collector = Collector(growth=2.0, floor=1000, check_every=1)
out = {}

young = weakref.ref(cycle())          # garbage before any step: a young pass finds it
out["young_step"] = collector.step()
out["young_freed"] = young() is None

kept = cycle()                         # alive at a step: frozen with the survivors
collector.step()
old = weakref.ref(kept)
del kept
out["old_kept_by_young_pass"] = collector.step()[1] is False and old() is not None

ballast = [[i] for i in range(collector.baseline)]  # ~3 blocks each: the heap grows 4x
out["full_step"] = collector.step()
out["old_freed_by_full_pass"] = old() is None
out["growth_after_little_garbage"] = collector.growth

more = [[i] for i in range(collector.baseline // 3)]  # the heap doubles again
out["doubled_step"] = collector.step()

junk = [cycle() for _ in range(collector.baseline // 4)]
collector.step()                       # frozen, then dropped: garbage only a full pass finds
del junk
most = [[i] for i in range(collector.baseline)]
out["quadrupled_step"] = collector.step()
out["growth_after_much_garbage"] = collector.growth
out["ballast_alive"] = len(ballast) + len(more) + len(most)
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def out() -> dict:
    done = subprocess.run([sys.executable, "-c", CHILD], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_young_garbage_goes_at_once_and_old_cycles_at_the_next_full_pass(out: dict) -> None:
    freed, full = out["young_step"]
    assert freed >= 2 and full is False and out["young_freed"]
    assert out["old_kept_by_young_pass"]  # frozen: a young pass does not scan it
    assert out["full_step"][1] is True
    assert out["old_freed_by_full_pass"]  # the heap grew: everything was scanned


def test_after_a_full_pass_that_found_little_the_next_waits_for_four_times_the_heap(
        out: dict) -> None:
    """A full pass stalls the loop for ~1 s with 1,000 rooms: while rooms fill the server
    and their heap holds no garbage cycles, it runs only each time the heap quadruples;
    a pass that finds much garbage brings back the doubling rule."""
    assert out["growth_after_little_garbage"] == 4.0
    assert out["doubled_step"][1] is False
    freed, full = out["quadrupled_step"]
    assert full and freed > 10_000
    assert out["growth_after_much_garbage"] == 2.0

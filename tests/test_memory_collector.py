"""The periodic collector (server/memory.py): short passes over the young heap, survivors
frozen, a full pass once the heap has grown. Run in a child process, since it
freezes the heap of the process it runs in."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

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

ballast = [[i] for i in range(collector.baseline)]  # the heap grows over 2x
out["full_step"] = collector.step()
out["old_freed_by_full_pass"] = old() is None
out["ballast_alive"] = len(ballast)
print(json.dumps(out))
"""


def test_young_garbage_goes_at_once_and_old_cycles_at_the_next_full_pass() -> None:
    done = subprocess.run([sys.executable, "-c", CHILD], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    freed, full = out["young_step"]
    assert freed >= 2 and full is False and out["young_freed"]
    assert out["old_kept_by_young_pass"]  # frozen: a young pass does not scan it
    assert out["full_step"][1] is True
    assert out["old_freed_by_full_pass"]  # the heap grew: everything was scanned

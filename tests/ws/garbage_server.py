"""`python -m server` that counts its reference cycles: on SIGUSR1 it writes to GARBAGE_FILE
how many objects a full collection found only in cycles, by type, then frees them."""

from __future__ import annotations

import collections
import gc
import json
import os
import signal
from types import FrameType

from server.__main__ import main


def count_garbage(signum: int, frame: FrameType | None) -> None:
    gc.unfreeze()  # python -m server freezes its survivors (server/memory.py)
    gc.set_debug(gc.DEBUG_SAVEALL)
    gc.collect()
    kinds = collections.Counter(type(o).__qualname__ for o in gc.garbage)
    gc.set_debug(0)
    gc.garbage.clear()
    gc.collect()
    gc.freeze()
    path = os.environ["GARBAGE_FILE"]
    with open(f"{path}.part", "w") as out:
        json.dump({"objects": sum(kinds.values()), "kinds": dict(kinds.most_common(10))}, out)
    os.replace(f"{path}.part", path)  # the test sees the whole count or nothing


signal.signal(signal.SIGUSR1, count_garbage)
main()

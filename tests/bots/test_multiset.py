"""The packed multisets agree with collections.Counter."""

from __future__ import annotations

import random
from collections import Counter

from server.bots import multiset as ms


def _random_items(rng: random.Random) -> list[int]:
    return [rng.randrange(8) for _ in range(rng.randrange(0, 12))]


def test_packed_operations_match_counter():
    rng = random.Random(3)
    for _ in range(2000):
        a, b = _random_items(rng), _random_items(rng)
        pa, pb = ms.of_items(a), ms.of_items(b)
        ca, cb = Counter(a), Counter(b)
        assert ms.fits(pa, pb) == all(ca[i] <= cb[i] for i in range(8))
        assert ms.unpack(ms.meet(pa, pb)) == tuple(min(ca[i], cb[i]) for i in range(8))
        assert ms.size(pa) == len(a)
        assert ms.unpack(pa + pb) == tuple(ca[i] + cb[i] for i in range(8))
        assert ms.pack(ms.unpack(pa)) == pa

"""Who sits with whom: the quick-play matcher, a pure function of the waiting seekers.

Seekers fit together when they want the same mode (real-time or turn-based), the same kind
of game (rated or casual) and a table size every one of them accepts. The one who waited
longest is seated first, with the others who fit:

- a seeker who joined another's seek from the lobby's list sits with it first;
- in a rated game, then those of the closest rating, within the rating window: two seekers
  may sit together when their ratings differ by at most the wider of their two windows, and
  a window widens with the wait (`window`), so nobody waits for ever for a perfect match;
- in a casual game, then those who waited longest.

A seeker who accepts several sizes gets the largest table that can be filled now. One who
asked for bots after N seconds and waited that long with no full table is seated with the
seekers who fit (as many as there are) and bots in the other seats. Nobody is seated twice:
each seeker is in at most one table of the answer.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

SIZES = (2, 3, 4)
# The rating window, in the ratings players are shown (1500 for a new account): this wide
# at first, and this much wider each second of waiting, up to the cap.
WINDOW_START = 100.0
WINDOW_PER_SECOND = 10.0
WINDOW_MAX = 1000.0


def window(waited: float) -> float:
    """How far apart (shown rating) a seeker who waited `waited` s accepts to be seated."""
    return min(WINDOW_MAX, WINDOW_START + WINDOW_PER_SECOND * max(0.0, waited))


@dataclass(frozen=True, slots=True)
class Seeker:
    id: int
    sizes: tuple[int, ...]  # the table sizes accepted: one, or all of SIZES ("any")
    mode: str
    rated: bool
    rating: int  # a guest's casual rating does not matter: any number
    waited: float  # seconds
    bots_after: float | None = None  # seconds; None: no bots
    join: int | None = None  # the seek this one joined from the list


@dataclass(frozen=True, slots=True)
class Table:
    seekers: tuple[int, ...]  # seeker ids, the longest waiting first
    bots: int = 0

    @property
    def size(self) -> int:
        return len(self.seekers) + self.bots


def sizes_of(size: int) -> tuple[int, ...]:
    """A seek's size as stored (0: any) as the sizes it accepts."""
    return SIZES if size == 0 else (size,)


def pair(seekers: Sequence[Seeker]) -> list[Table]:
    """The tables to seat now. Each pool (mode, rated) is matched on its own."""
    pools: dict[tuple[str, bool], list[Seeker]] = defaultdict(list)
    for s in seekers:
        pools[(s.mode, s.rated)].append(s)
    tables: list[Table] = []
    for (_, rated), pool in pools.items():
        tables.extend(_Pool(pool, rated).match())
    return tables


class _Pool:
    def __init__(self, seekers: list[Seeker], rated: bool) -> None:
        self.rated = rated
        self.by_wait = sorted(seekers, key=lambda s: (-s.waited, s.id))
        self.by_rating = sorted(seekers, key=lambda s: (s.rating, s.id))
        self.ratings = [s.rating for s in self.by_rating]
        self.widest = max((window(s.waited) for s in seekers), default=0.0)
        self.joiners: dict[int, list[Seeker]] = defaultdict(list)
        for s in self.by_wait:
            if s.join is not None:
                self.joiners[s.join].append(s)
        self.taken: set[int] = set()

    def match(self) -> Iterator[Table]:
        for first in self.by_wait:
            if first.id in self.taken:
                continue
            table = self.table_for(first)
            if table is not None:
                self.taken.update(table.seekers)
                yield table

    def table_for(self, first: Seeker) -> Table | None:
        best: Table | None = None
        for size in sorted(first.sizes, reverse=True):  # the largest table first
            others = self.others(first, size, size - 1)
            if len(others) == size - 1:
                return Table((first.id, *others))
            if first.bots_after is not None and first.waited >= first.bots_after:
                # the fewest bots; for as many humans, the smallest table
                candidate = Table((first.id, *others), size - 1 - len(others))
                if best is None or (len(others), -size) >= (len(best.seekers) - 1, -best.size):
                    best = candidate
        return best

    def others(self, first: Seeker, size: int, wanted: int) -> list[int]:
        """Up to `wanted` seekers to sit with `first` at a table of `size`, in the order
        the module docstring gives."""
        chosen: list[int] = []
        if wanted == 0:
            return chosen
        for s in self.candidates(first):
            if s.id in self.taken or s.id == first.id or s.id in chosen or size not in s.sizes:
                continue
            chosen.append(s.id)
            if len(chosen) == wanted:
                break
        return chosen

    def candidates(self, first: Seeker) -> Iterator[Seeker]:
        yield from self.joiners.get(first.id, ())
        if first.join is not None:  # sits with the seek it joined, if that one still waits
            yield from (s for s in self.by_wait if s.id == first.join)
        if not self.rated:
            yield from self.by_wait
            return
        # Outward from `first`'s rating, the closer side first, within the windows.
        reach = window(first.waited)
        at = bisect.bisect_left(self.ratings, first.rating)
        low, high = at - 1, at
        while low >= 0 or high < len(self.by_rating):
            down = first.rating - self.ratings[low] if low >= 0 else None
            up = self.ratings[high] - first.rating if high < len(self.by_rating) else None
            if up is None or (down is not None and down <= up):
                gap, s, low = down, self.by_rating[low], low - 1
            else:
                gap, s, high = up, self.by_rating[high], high + 1
            assert gap is not None
            if gap > max(reach, self.widest):
                return  # everyone further away is further than any window
            if gap <= max(reach, window(s.waited)):
                yield s

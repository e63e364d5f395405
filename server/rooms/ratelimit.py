"""Sliding-window counters: a socket's flood budget, room creation per client address."""

from __future__ import annotations

from collections.abc import Callable


class SlidingWindow:
    """At most `limit` hits in any `window` seconds."""

    __slots__ = ("limit", "window", "clock", "hits")  # one per socket

    def __init__(self, limit: int, window: float, clock: Callable[[], float]) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        # A list, not a deque: it holds at most `limit` floats, and an empty list costs 56
        # bytes where a deque costs 760 (one window per socket).
        self.hits: list[float] = []

    def hit(self) -> bool:
        """Count one hit; False (and not counted) when it would exceed the budget."""
        now = self.clock()
        hits = self.hits
        expired = 0
        while expired < len(hits) and hits[expired] <= now - self.window:
            expired += 1
        if expired:
            del hits[:expired]
        if len(hits) >= self.limit:
            return False
        hits.append(now)
        return True


class RateLimit:
    """One sliding window per key (e.g. client address)."""

    def __init__(self, limit: int, window: float, clock: Callable[[], float]) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self.keys: dict[str, SlidingWindow] = {}

    def hit(self, key: str) -> bool:
        if len(self.keys) > 10_000:  # forget idle keys now and then
            now = self.clock()
            self.keys = {
                k: w for k, w in self.keys.items() if w.hits and w.hits[-1] > now - self.window
            }
        window = self.keys.get(key)
        if window is None:
            window = self.keys[key] = SlidingWindow(self.limit, self.window, self.clock)
        return window.hit()

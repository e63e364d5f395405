"""A room clock a test moves by hand (the app's injected `clock`)."""

from __future__ import annotations


class FakeClock:
    """Seconds that move only when the test says."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds

"""Jobs for the bot pool's tests: top-level, so that a spawned worker can import them.
Each takes the pool's two last arguments, the deadline and the stop check."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

Stop = Callable[[], bool] | None


def label(name: str, deadline: float | None, stop: Stop) -> str:
    return name


def deadline_of(deadline: float | None, stop: Stop) -> float | None:
    return deadline


def hold(gate: str, seconds: float, deadline: float | None, stop: Stop) -> bool:
    """Hold the worker: create the file `gate` (the test knows then that this job has
    begun), then think for up to `seconds` unless stopped first. Whether it was stopped."""
    Path(gate).touch()
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if stop is not None and stop():
            return True
        time.sleep(0.005)
    return False


def wait_for(gate: str, deadline: float | None, stop: Stop) -> None:
    """Hold the worker until the file `gate` exists (a move: nothing stops it)."""
    while not Path(gate).exists():
        time.sleep(0.005)

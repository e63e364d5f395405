"""Bot budgets are counted work, not seconds: a seeded game is the same at any load, and
at a table a deadline still bounds a decision (budget.py)."""

from __future__ import annotations

import contextlib
import logging
import random
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from server.bots import expert, strong
from server.bots.budget import Budget
from server.bots.levels import chooser
from server.bots.match import play_game
from server.rules import view

from .test_strong_eval import _midgame

SEED = 3
WORK = 0.05  # a small share of the full work: the searches still run several rounds


def _game(level: str) -> dict:
    expert._plans.clear()
    strong._plans.clear()
    return play_game([chooser(level), chooser("greedy")], SEED, WORK)


@contextlib.contextmanager
def cpu_hogs() -> Iterator[list[subprocess.Popen[bytes]]]:
    """Real busy processes, one per core here, competing with the test for CPU."""
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    try:
        yield hogs
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()


@pytest.mark.parametrize("level", ["strong", "expert"])
def test_seeded_games_are_the_same_again_and_under_a_cpu_hog(level):
    first = _game(level)
    assert _game(level) == first
    with cpu_hogs() as hogs:
        loaded = _game(level)
        assert all(hog.poll() is None for hog in hogs)  # busy all along
    assert loaded == first


def test_a_deadline_cuts_the_search_short_and_says_so(caplog):
    game = _midgame(6, 3)
    seen = view(game, game.current)
    started = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="server.bots.budget"):
        decision = expert.decide(seen, random.Random(1), Budget(1.0, deadline=started),
                                 use_plans=False)
    assert any(decision.action is legal for legal in seen["legal"])
    assert "deadline cut" in caplog.text and "expert" in caplog.text
    # Read after every sample: cut in the first round, which is dropped (greedy's plan).
    assert "greedy's plan" in decision.why and "cut in its first round" in decision.why
    assert decision.action == expert.candidate_plans(game)[0].actions[0]

"""The expert's review across a cluster (issue 45): two real instances on one PostgreSQL
database. A review asked on both is computed once (the game's `game_reviews` row is the
claim) and both serve it, the same review the game gives anywhere (same work and seed). A
review being computed when its instance is SIGKILLed is taken over by the other once the
dead one's claim ran out (REVIEW_LEASE), found by the other's sweep with nobody asking
again, and finished there, once."""

from __future__ import annotations

import asyncio
import json
import signal
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from server.bots import review
from server.db.session import make_engine
from tests.history.helpers import played
from tests.stored import greedy_game, store_games

from .harness import Cluster

pytestmark = pytest.mark.timeout(180)

WORK = 0.05  # the review's share of the expert's work: a 4-player greedy game takes seconds
SETTINGS = {"BOT_WORKERS": "1", "REVIEW_WORK": str(WORK), "REVIEW_LEASE": "3",
            "SWEEP_INTERVAL": "0.5", "REVIEWS_PER_ADDRESS": "100"}


def row(url: str, game_id: int) -> dict[str, Any]:
    """The game's review row as the database holds it."""

    async def read() -> dict[str, Any]:
        engine = make_engine(url)
        try:
            async with engine.connect() as conn:
                found = (await conn.execute(text(
                    "SELECT state, claimed_by, computed FROM game_reviews WHERE game_id = :g"),
                    {"g": game_id})).mappings().first()
                return dict(found) if found else {}
        finally:
            await engine.dispose()

    return asyncio.run(read())


def until(check: Callable[[], Any], what: str, timeout: float = 90) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"{what}: not within {timeout} s")


def holding(c: Cluster, claimed_by: str) -> tuple[str, str]:
    """The instance named by a claim, and the other one. Either may hold it: the one asked
    claims it first unless the other's sweep (every SWEEP_INTERVAL) finds the queued row
    before its worker does, as it may on a busy machine."""
    name = claimed_by.split(":")[0]
    assert name in c.instances, claimed_by  # the claim names its instance
    return name, next(n for n in c.instances if n != name)


def state(base: str, game_id: int) -> dict[str, Any]:
    return dict(httpx.get(f"{base}/api/games/{game_id}/review", timeout=10).json())


def test_a_review_is_computed_once_per_cluster_and_taken_over_from_a_dead_instance(
    cluster: Callable[..., Cluster],
) -> None:
    c = cluster(2, settings=SETTINGS)
    i1, i2 = c.instances["i1"], c.instances["i2"]
    short = played(31, 41, ("Ada", "Bram")).record  # public: anyone may ask
    long = greedy_game(45, 4)  # imported: anyone may ask
    first, second = store_games(c.database_url, [short, long])

    # Asked on both instances at once: one computes it, both serve it.
    for inst in (i1, i2):
        asked = httpx.post(f"{inst.url}/api/games/{first}/review", json={}, timeout=10)
        assert asked.status_code in (200, 202), asked.text
    done = until(lambda: state(i1.url, first)["state"] == "done" and state(i1.url, first),
                 "the review of the game asked on both")
    assert state(i2.url, first) == done
    assert row(c.database_url, first) == {"state": "done", "claimed_by": None, "computed": 1}
    alone = review.review_game(short.seed, short.options, short.actions, WORK, 0, 2)
    assert done["review"] == json.loads(json.dumps(alone))  # the same review anywhere

    # Asked on i1; the instance computing it is SIGKILLed: the other takes it over and
    # finishes it.
    assert httpx.post(f"{i1.url}/api/games/{second}/review", json={}, timeout=10).is_success
    holder = until(lambda: row(c.database_url, second).get("claimed_by"),
                   "the review being computed")
    dead, other = holding(c, holder)
    c.kill(dead, signal.SIGKILL)
    survivor = c.instances[other]
    assert state(survivor.url, second)["state"] == "running"  # cut short, still the dead one's
    taken = until(
        lambda: (row(c.database_url, second).get("claimed_by") or "").startswith(f"{other}:"),
        "the other taking the dead instance's claim over", timeout=30)
    assert taken
    finished = until(
        lambda: state(survivor.url, second)["state"] == "done" and state(survivor.url, second),
        "the review finished by the other")
    assert row(c.database_url, second) == {"state": "done", "claimed_by": None, "computed": 1}
    turns = review.walk(long.seed, long.options, long.actions)
    assert [t["turn"] for t in finished["review"]["turns"]] == [t.number for t in turns]


def test_a_frozen_holder_is_taken_over_and_once_thawed_stores_nothing(
    cluster: Callable[..., Cluster],
) -> None:
    """SIGSTOP, not SIGKILL: the holder is frozen mid-review, its claim runs out, the other
    instance takes it over and stores the review. Thawed (SIGCONT), the first finds its
    claim gone at its next renewal (or at its finish) and stores nothing: the review stays
    stored once, and both instances serve the same one."""
    c = cluster(2, settings=SETTINGS)
    i1 = c.instances["i1"]
    record = greedy_game(47, 4)
    [game] = store_games(c.database_url, [record])

    assert httpx.post(f"{i1.url}/api/games/{game}/review", json={}, timeout=10).is_success
    holder = until(lambda: row(c.database_url, game).get("claimed_by"),
                   "the review being computed")
    name, other = holding(c, holder)
    frozen, survivor = c.instances[name], c.instances[other]
    c.kill(name, signal.SIGSTOP)
    try:
        until(lambda: (row(c.database_url, game).get("claimed_by") or "").startswith(f"{other}:"),
              "the other taking the frozen instance's claim over", timeout=30)
        finished = until(
            lambda: state(survivor.url, game)["state"] == "done" and state(survivor.url, game),
            "the review finished by the other")
        assert row(c.database_url, game) == {"state": "done", "claimed_by": None,
                                             "computed": 1}
    finally:
        c.kill(name, signal.SIGCONT)

    until(lambda: "the claim was taken over" in frozen.tail(20000),
          "the thawed instance finding its claim gone")
    assert frozen.alive and state(frozen.url, game) == finished
    assert row(c.database_url, game) == {"state": "done", "claimed_by": None, "computed": 1}
    assert "Traceback" not in frozen.tail(200000), frozen.tail()
    turns = review.walk(record.seed, record.options, record.actions)
    assert [t["turn"] for t in finished["review"]["turns"]] == [t.number for t in turns]

"""A review whose holder lost its database mid-review (issue 45), on a real PostgreSQL: the
server ends the holder's session while it reads the game (what it does to a process frozen
inside a transaction past idle_in_transaction_session_timeout), and meanwhile another
instance took the claim over. The holder neither marks the review failed nor goes on: it
finds the claim gone and leaves the review to the instance that holds it. The same freeze
on real processes, by chance at any point of the review: tests/cluster/test_reviews_cluster.py."""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import make_url

from server.db import reviews as stored
from server.db.migrate import upgrade
from server.db.session import make_engine, session_factory
from server.history.reviews import Reviews
from tests.db.conftest import PG_URL, reset_postgres
from tests.stored import greedy_game, store_games

pytestmark = pytest.mark.timeout(60)
APP = "review-holder"  # the holder's connections, as pg_stat_activity names them


class NoPool:
    """The bot workers: never reached, the review stops at its cut read."""

    async def call(self, fn: Any, *args: Any, key: str | None = None, priority: int = 0) -> Any:
        raise AssertionError("the review went on after the database ended its session")


def test_a_holder_whose_read_was_cut_leaves_the_review_to_the_instance_that_took_it(
    caplog: pytest.LogCaptureFixture,
) -> None:
    reset_postgres(PG_URL)
    upgrade(PG_URL)
    [game] = store_games(PG_URL, [greedy_game(47, 2)])
    admin = create_engine(make_url(PG_URL).set(drivername="postgresql+psycopg"),
                          isolation_level="AUTOCOMMIT")

    def cut_and_take_over(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if "FROM games" not in statement or cut:
            return
        cut.append(statement)
        with admin.connect() as conn:
            conn.execute(text("UPDATE game_reviews SET claimed_by = 'i2:other', "
                              "claimed_at = now() WHERE game_id = :g"), {"g": game})
            conn.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                              "WHERE application_name = :app"), {"app": APP})

    cut: list[str] = []

    async def review() -> None:
        engine = make_engine(PG_URL, connect_args={"server_settings": {"application_name": APP}})
        event.listen(engine.sync_engine, "after_cursor_execute", cut_and_take_over)
        sessions = session_factory(engine)
        reviews = Reviews(NoPool(), sessions, work=0.05, seed=1, queue_max=10,
                          per_address=100, lease=3, rated=False, me="i1")
        async with sessions.begin() as session:
            await stored.ask(session, game, 0.05, 1, datetime.now(UTC))
        working = asyncio.create_task(reviews.run())
        reviews._enqueue(game)
        try:
            for _ in range(200):
                if "the claim was taken over" in caplog.text:
                    break
                await asyncio.sleep(0.05)
        finally:
            working.cancel()
            await asyncio.gather(working, return_exceptions=True)
            await engine.dispose()

    try:
        with caplog.at_level(logging.WARNING, logger="server.history.reviews"):
            asyncio.run(review())
        assert cut, "the game was never read"
        assert "the claim was taken over by another instance" in caplog.text, caplog.text
        assert "failed" not in caplog.text
        with admin.connect() as conn:
            row = conn.execute(text("SELECT state, claimed_by, computed FROM game_reviews "
                                    "WHERE game_id = :g"), {"g": game}).one()
        assert tuple(row) == (stored.RUNNING, "i2:other", 0)  # not failed, not given back
    finally:
        admin.dispose()

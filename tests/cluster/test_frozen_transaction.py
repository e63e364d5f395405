"""An owner frozen in the middle of a journal transaction holds its room's row lock (the
epoch check, FOR SHARE): PostgreSQL ends that session after DB_TIMEOUT, so another
instance can claim the room while the owner is still frozen (issue 25, point 5)."""

from __future__ import annotations

import signal
import time

import httpx
import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from tests.persist.live import bots_game

from .harness import Cluster

# A backend of the database inside a transaction past its first statement (so holding the
# epoch check's row locks), with its client silent.
STUCK = text("""
    SELECT count(*) FROM pg_stat_activity
    WHERE datname = current_database() AND state = 'idle in transaction'
      AND query NOT ILIKE 'BEGIN%'
""")


def test_a_claim_gets_through_while_the_owner_is_frozen_mid_transaction(cluster) -> None:
    c: Cluster = cluster(2, settings={"BOT_WORKERS": "1", "BOT_DELAY": "0"})
    i1, i2 = c.instances["i1"], c.instances["i2"]
    codes = [bots_game(i1.url) for _ in range(3)]  # bots keep i1's journal busy
    engine = create_engine(make_url(c.database_url).set(drivername="postgresql+psycopg"),
                           isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as db:
            for _ in range(400):
                c.kill("i1", signal.SIGSTOP)
                time.sleep(0.02)
                if db.execute(STUCK).scalar():
                    break
                c.kill("i1", signal.SIGCONT)
                time.sleep(0.01)
            else:
                pytest.skip("never caught i1 in the middle of a transaction")
        # i1 stays frozen: i2 waits out its lease, then its claim must not wait for the
        # frozen transaction (a 503 now and then is "retry", as the browser does).
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            answer = httpx.get(f"{i2.url}/api/rooms/{codes[0]}", timeout=30)
            if answer.status_code == 200:
                break
            assert answer.status_code == 503, answer.text
        else:
            pytest.fail("the room could not be claimed while its owner was frozen")
        assert answer.headers["x-instance"] == "i2"
    finally:
        engine.dispose()
        c.kill("i1", signal.SIGCONT)

"""The single server's PostgreSQL lock outlives its connection (issue 41.14): when the
connection that holds it drops (a database restart, a failover, an administrator's
pg_terminate_backend), the server takes the lock again at once; if another server has it
by then, this one stops serving (one line naming the holder, exit status 3) instead of
journaling beside it. Never two servers on one database."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import psycopg
from db.conftest import PG_URL, reset_postgres
from sqlalchemy.engine import make_url

from server.persist.lock import JOURNAL_LOCK_KEY
from tests.serving import POLL, free_port, launch, stop

from .live import Server, Table, replay, seat_views

SEED, PLAYERS = 5, 2
HOLDERS = ("SELECT l.pid, a.application_name FROM pg_locks l JOIN pg_stat_activity a "
           "ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 "
           "AND ((l.classid::bigint << 32) | l.objid::bigint) = %s "
           "AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())")


def admin(name: str = "test admin") -> psycopg.Connection[tuple[object, ...]]:
    url = make_url(PG_URL)
    return psycopg.connect(host=url.host, port=url.port, user=url.username,
                           dbname=url.database, application_name=name, autocommit=True)


def holders(conn: psycopg.Connection[tuple[object, ...]]) -> list[tuple[int, str]]:
    return [(int(str(pid)), str(app))
            for pid, app in conn.execute(HOLDERS, (JOURNAL_LOCK_KEY,)).fetchall()]


def wait_for(check: Callable[[], object], what: str | None = None) -> None:
    """Poll `check` for up to 10 s; then fail naming `what`, or just go on without it."""
    for _ in range(200):
        if check():
            return
        time.sleep(0.05)
    if what is not None:
        raise AssertionError(what)


def env_for(tmp_path: Path, name: str) -> dict[str, str]:
    return {"DATABASE_URL": PG_URL, "JOURNAL_FALLBACK_PATH": str(tmp_path / name / "fb.jsonl"),
            "TEST_FIXED_SEED": str(SEED), "BOT_WORKERS": "0", "INSTANCE_ID": name}


def serving_or_exit(proc: subprocess.Popen[bytes], url: str) -> bool:
    """Wait until the process serves (True) or exits (False)."""
    with httpx.Client(timeout=1) as client:  # one client for all the looks (serving.POLL)
        while proc.poll() is None:
            try:
                if client.get(f"{url}/healthz").status_code == 200:
                    return True
            except httpx.TransportError:
                time.sleep(POLL)
    return False


def test_the_lock_is_taken_again_when_its_connection_is_killed(tmp_path: Path) -> None:
    reset_postgres(PG_URL)
    first = Server(env_for(tmp_path, "first"))
    first.start()
    try:
        table = Table(first, PLAYERS, seed=1)
        table.play(4)
        with admin() as db:
            [(pid, name)] = holders(db)
            assert "first" in name
            db.execute("SELECT pg_terminate_backend(%s)", (pid,))
            wait_for(lambda: all(p != pid for p, _ in holders(db)), "the backend ended")
            wait_for(lambda: holders(db))  # the first server has the lock again (checked below)
            port = free_port()
            second = launch({**env_for(tmp_path, "second"), "PORT": str(port)})
            try:
                assert not serving_or_exit(second, f"http://127.0.0.1:{port}"), \
                    "two servers serve the same database"
                assert second.stderr is not None
                stderr = second.stderr.read().decode()
                assert second.returncode == 3
                assert "holds the journal of this database" in stderr, stderr
                assert "(coffee-rush first)" in stderr, stderr
            finally:
                stop(second)
            [(_, name)] = holders(db)
            assert "first" in name
        table.play(4)  # the first server still acknowledges, and kept everything
        table.close()
        assert first.terminate()
        first.start()
        table.connect(first)
        assert [p.game() for p in table.players] == seat_views(
            replay(SEED, PLAYERS, table.acked))
        table.close()
    finally:
        first.stop()


def test_a_server_whose_lock_was_taken_meanwhile_stops_serving(tmp_path: Path) -> None:
    reset_postgres(PG_URL)
    log = tmp_path / "first.log"
    first = Server(env_for(tmp_path, "first"), log=log)
    first.start()
    try:
        with admin("intruder") as intruder:
            [(pid, _)] = holders(intruder)
            # The intruder waits for the lock in the same breath: it has it the moment the
            # backend ends, before the server can have reconnected.
            intruder.execute("SELECT pg_terminate_backend(%s)", (pid,))
            intruder.execute("SELECT pg_advisory_lock(%s)", (JOURNAL_LOCK_KEY,))
            assert first.proc is not None
            try:
                status = first.proc.wait(30)
            except subprocess.TimeoutExpired:
                raise AssertionError("the server serves on without its lock") from None
            assert status == 3
            lines = [line for line in first.errors().splitlines() if "stopped" in line]
            assert lines == ["coffee-rush: stopped: another server (intruder) holds the "
                             "journal of this database (one server per database outside "
                             "cluster mode)"], first.errors()
            with httpx.Client() as http:
                try:
                    http.get(f"{first.http}/healthz", timeout=2)
                    raise AssertionError("still answering")
                except httpx.TransportError:
                    pass
    finally:
        first.stop()

"""Exactly one "your turn" e-mail per turn across crashes, with a real server process:
the move is made while the SMTP server is down (the mail waits in the outbox), the server
is SIGKILLed before it could send it, the SMTP server comes back and the server is started
again: the mail goes out once. SIGKILLed and started again after that: no second one."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import httpx
from sqlalchemy import text

from server.db.session import make_engine
from tests.persist.live import Player, Server

from .smtp import SmtpServer
from .tables import turn_based_table

ADDRESS = "bo@example.org"


def test_a_crash_between_the_move_and_the_send_loses_and_repeats_nothing(
        db_url: str, tmp_path: Path, templates_dir: Path, smtp: SmtpServer) -> None:
    env = {k: str(v) for k, v in smtp.settings().items()}
    server = Server({**env, "DATABASE_URL": db_url, "TEST_FIXED_SEED": "7",
                     "BOT_WORKERS": "0", "TEMPLATES_DIR": str(templates_dir),
                     "JOURNAL_FALLBACK_PATH": str(tmp_path / "data" / "fallback.jsonl")},
                    log=tmp_path / "server.log")
    server.start()
    try:
        with httpx.Client(base_url=server.http, timeout=10) as api:
            code, tokens = turn_based_table(api, smtp, ADDRESS)

        smtp.stop()  # the mail cannot go now
        ana = Player(server.ws(code), tokens[0])
        while ana.game()["current"] == 0:
            ana.act(ana.game()["legal"][-1])
        ana.close()
        # The turn mail is in the outbox, unsent, its first try failed: crash now. (Killed
        # in the middle of a try, the mail would wait out its sender's claim, CLAIM_TTL.)
        deadline = time.monotonic() + 30
        while not asyncio.run(tried_and_released(db_url)):
            assert time.monotonic() < deadline, "the turn mail was never tried"
            time.sleep(0.05)
        server.kill()
        assert smtp.received() and len(smtp.wait_for(1, timeout=0.2, kind="turn")) == 0

        smtp.start()
        server.start()
        # The failed try put the next one back (5 s, then 10 s, 20 s: outbox.backoff).
        assert len(smtp.wait_for(1, timeout=40, kind="turn")) == 1
        # Restored as it was: turn-based, its clock running with nobody at the table.
        info = httpx.get(f"{server.http}/api/rooms/{code}", timeout=5).json()
        assert info["options"]["mode"] == "turn_based" and info["clock"]["running"]
        deadline = time.monotonic() + 10
        while server.health()["mail"]["backlog"] != 0:
            assert time.monotonic() < deadline
            time.sleep(0.05)

        server.kill()  # sent and recorded: a restart must not send it again
        server.start()
        time.sleep(1.0)  # a pass of the worker has looked at the room again
        assert server.health()["mail"]["backlog"] == 0
        assert len(smtp.wait_for(2, timeout=0.5, kind="turn")) == 1
    finally:
        server.stop()
    assert "Traceback" not in server.errors()


async def tried_and_released(db_url: str) -> bool:
    """The turn mail's row exists, a try of it failed, and no sender holds it."""
    engine = make_engine(db_url)
    try:
        async with engine.connect() as connection:
            rows = (await connection.execute(text(
                "SELECT attempts, claimed_by FROM mail_outbox WHERE kind = 'turn'"))).all()
    finally:
        await engine.dispose()
    return bool(rows) and all(attempts >= 1 and by is None for attempts, by in rows)

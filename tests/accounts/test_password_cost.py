"""Argon2's cost comes from the settings: the defaults are the real cost (3 passes over
64 MiB), a server hashes new passwords at PASSWORD_TIME_COST / PASSWORD_MEMORY_KIB, and a
stored hash is checked at the cost written in it, so a password made at one cost still
signs in after the cost changed. (The suite runs at the least cost: tests/conftest.py.)"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from server.accounts.passwords import Cost, hash_password, verify_password
from server.config import Settings
from server.main import create_app

from .conftest import client, sign_up

pytestmark = pytest.mark.asyncio


async def test_the_default_cost_is_the_real_one_and_hashes_carry_their_own() -> None:
    fields = Settings.model_fields
    assert (fields["PASSWORD_TIME_COST"].default,
            fields["PASSWORD_MEMORY_KIB"].default) == (Cost().time, Cost().memory_kib) == (3, 65536)
    cheap = hash_password("correct horse", Cost(1, 1024))
    assert "$m=1024,t=1," in cheap
    # checked at its own cost, whatever the cost of new hashes is now
    assert verify_password("correct horse", cheap, Cost(2, 2048))
    assert not verify_password("wrong horse", cheap, Cost(2, 2048))
    assert not verify_password("correct horse", None, Cost(1, 1024))


async def test_a_server_hashes_at_its_settings_cost(
        make_settings: Callable[..., Settings], tmp_path: Path) -> None:
    built = create_app(make_settings(BOT_WORKERS=0, PASSWORD_TIME_COST=2,
                                     PASSWORD_MEMORY_KIB=2048))
    async with built.router.lifespan_context(built), client(built) as browser:
        await sign_up(browser, "Alice")
        r = await browser.post("/api/sign-in/password",
                               json={"name": "Alice", "password": "correct horse"})
        assert r.status_code == 200, r.text
    with contextlib.closing(sqlite3.connect(tmp_path / "data" / "coffee-rush.db")) as db:
        (stored,) = db.execute("SELECT password_hash FROM accounts").fetchone()
    assert "$m=2048,t=2," in stored

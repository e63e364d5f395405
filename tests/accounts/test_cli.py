"""`coffee-rush users list|disable|enable|rename`: the host's account tools, on both
databases (in-process through server.cli.main, as the installed script runs it)."""

from __future__ import annotations

import asyncio
import json

import pytest

from server import cli
from server.accounts import sessions, store
from server.accounts.names import name_key
from server.db.migrate import upgrade
from server.db.models import utcnow
from server.db.session import make_engine, session_factory


async def _fill(url: str) -> None:
    engine = make_engine(url)
    try:
        async with session_factory(engine)() as session, session.begin():
            alice = await store.create_account(session, "Alice", name_key("Alice"), "h", utcnow())
            await store.create_account(session, "Bob", name_key("Bob"), None, utcnow())
            await sessions.open_session(session, alice, utcnow(), 30, "test")
    finally:
        await engine.dispose()


async def _signed_in_sessions(url: str) -> int:
    engine = make_engine(url)
    try:
        async with session_factory(engine)() as session:
            return len(await store.sessions_of(session, 1))
    finally:
        await engine.dispose()


def users(url: str, *args: str) -> int:
    return cli.main(["users", "--database-url", url, *args])


def test_users_list_disable_enable_and_rename(db_url: str, capsys: pytest.CaptureFixture[str]
                                              ) -> None:
    upgrade(db_url)
    asyncio.run(_fill(db_url))
    assert users(db_url, "list", "--json") == 0
    listed = json.loads(capsys.readouterr().out)
    assert [(u["id"], u["name"], u["status"], u["password"]) for u in listed] == [
        (1, "Alice", "active", True), (2, "Bob", "active", False)]

    assert users(db_url, "disable", "alice") == 0  # by name, any case
    assert "disabled" in capsys.readouterr().out
    assert asyncio.run(_signed_in_sessions(db_url)) == 0  # signed out everywhere
    assert users(db_url, "enable", "#1") == 0
    capsys.readouterr()

    assert users(db_url, "rename", "2", "\u0410lice") == 1  # a look-alike of Alice's name
    assert "name_taken" in capsys.readouterr().err
    assert users(db_url, "rename", "2", "greedy bot") == 1
    assert "name_reserved" in capsys.readouterr().err
    assert users(db_url, "rename", "2", "Bobby") == 0
    assert users(db_url, "list") == 0
    out = capsys.readouterr().out
    assert "#2\tBobby\tactive" in out and "#1\tAlice\tactive" in out
    assert users(db_url, "disable", "nobody") == 1
    assert "not_found" in capsys.readouterr().err

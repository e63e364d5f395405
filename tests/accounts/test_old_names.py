"""Old names are held (issue 29): after a rename, the old name (or a look-alike of it) can
be taken by no other account, by sign-up, rename or the host's CLI, and by no guest at a
table; the history keeps it; its owner may take it back. Deleting the account frees its
old names, and holds the name it had for NAME_HOLD_DAYS (test_delete_export.py).
Migration 0009 gives the old names already stored their key."""

from __future__ import annotations

import asyncio
import importlib.util
from datetime import timedelta

import pytest
from db.test_talk import _exec, _rows
from fastapi import FastAPI

from server import cli
from server.accounts import store
from server.accounts.limits import Limits
from server.accounts.names import name_key
from server.db.migrate import downgrade_async, upgrade_async
from server.db.models import utcnow
from tests.serving import ROOT

from .conftest import client, refused, sign_up

pytestmark = pytest.mark.asyncio
CYRILLIC_ALICE = "\u0410lice"


async def test_an_old_name_is_held_for_its_owner(app: FastAPI) -> None:
    async with client(app) as alice, client(app) as bob, client(app, "10.0.0.3") as guest:
        await sign_up(alice, "Alice")
        r = await alice.post("/api/me/name", json={"name": "Alicia"})
        assert r.status_code == 200 and r.json()["name"] == "Alicia"

        for name in ("Alice", "ALICE", CYRILLIC_ALICE):  # sign-up, password or passkey
            refused(await bob.post("/api/accounts", json={"name": name,
                                                          "password": "correct horse"}),
                    409, "name_taken")
            refused(await bob.post("/api/accounts/passkey/begin", json={"name": name}),
                    409, "name_taken")
        await sign_up(bob, "Bob")
        refused(await bob.post("/api/me/name", json={"name": "alice"}), 409, "name_taken")
        url = app.state.settings.DATABASE_URL
        assert await asyncio.to_thread(cli.main, ["users", "--database-url", url, "rename",
                                                  "Bob", "Alice"]) == 1
        code = (await guest.post("/api/rooms", json={"players": 2})).json()["code"]
        refused(await guest.post(f"/api/rooms/{code}/join", json={"name": "Alice"}), 409,
                "name_taken")

        r = await alice.post("/api/me/name", json={"name": "alice"})  # hers to take back
        assert r.status_code == 200 and r.json()["name"] == "alice"
        history = [n["name"] for n in (await alice.get("/api/me/export")).json()["old_names"]]
        assert history == ["Alice", "Alicia"]
        refused(await bob.post("/api/me/name", json={"name": "Alicia"}), 409, "name_taken")

        assert (await alice.post("/api/me/delete", json={"name": "alice"})).status_code == 200
        r = await bob.post("/api/me/name", json={"name": "Alicia"})  # freed with the account
        assert r.status_code == 200, r.text
        refused(await guest.post(f"/api/rooms/{code}/join", json={"name": "Alice"}), 409,
                "name_taken")  # the name she left with is held a while (issue 41.17)


async def test_migration_0009_keys_the_old_names_already_stored(db_url: str) -> None:
    await upgrade_async(db_url, "0008")
    await _exec(db_url,
                "INSERT INTO accounts (id, name, name_key, created_at, disabled)"
                " VALUES (7, 'Ana', 'ana', '2026-12-02 06:00:00', false)",
                "INSERT INTO account_names (id, account_id, name, until)"
                " VALUES (1, 7, 'B0b', '2026-12-03 06:00:00')")
    await upgrade_async(db_url)
    assert await _rows(db_url, "SELECT account_id, name, name_key FROM account_names") == [
        (7, "B0b", "bob")]
    await downgrade_async(db_url, "0008")
    assert await _rows(db_url, "SELECT account_id, name FROM account_names") == [(7, "B0b")]
    await upgrade_async(db_url)
    assert await _rows(db_url, "SELECT name_key FROM account_names") == [("bob",)]


async def test_migration_0009_keys_names_as_the_accounts_did_at_its_revision() -> None:
    """Its own copy of the key (issue 41.21), which folds case, spaces, look-alike letters
    of other scripts and a zero for an o, as server/accounts/names.py did then."""
    path = ROOT / "migrations" / "versions" / "0009_old_name_keys.py"
    spec = importlib.util.spec_from_file_location("migration_0009", path)
    assert spec is not None and spec.loader is not None
    migration = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(migration)
    names = ["Alice", "ALICE", "A lice", "\u0410lice", "B0b", "\u0412\u041e\u0422",
             "\u0432\u043e\u0442", "Ｂｏｂ", "a\u200db"]
    assert [migration.name_key(n) for n in names] == [
        "a1ice", "a1ice", "a1ice", "a1ice", "bob", "bot", "\u0299o\u03c4", "bob", "ab"]


async def test_an_old_name_is_held_for_name_hold_days_only(app: FastAPI) -> None:
    """Issue 41.7: held for NAME_HOLD_DAYS after it was left, then anyone's."""
    async with client(app) as alice:
        me = await sign_up(alice, "Alice")
        assert (await alice.post("/api/me/name", json={"name": "Alicia"})).status_code == 200
    hold = Limits.of(app.state.settings).hold
    async with app.state.db_sessions() as session:
        now = utcnow()
        assert await store.holder(session, name_key("Alice"), hold, now) == me["id"]
        later = now + hold.hold + timedelta(minutes=1)
        assert await store.holder(session, name_key("Alice"), hold, later) is None
        assert await store.holder(session, name_key("Alicia"), hold, later) == me["id"]

"""Server-side sessions: only the secret's sha256 is stored; `last_seen_at` is written at
most once a minute; an expired session signs nobody in and is removed; a disabled account's
sessions end; over HTTPS the cookie is Secure."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from fastapi import FastAPI
from sqlalchemy import text

from server.accounts import sessions, store
from server.accounts.names import name_key
from server.config import Settings
from server.db.migrate import upgrade_async
from server.db.models import utcnow
from server.db.session import make_engine, session_factory
from server.main import create_app

from .authenticator import Authenticator
from .conftest import client, sign_up

pytestmark = pytest.mark.asyncio


async def test_sessions_touch_at_most_once_a_minute_and_expire(db_url: str) -> None:
    await upgrade_async(db_url)
    engine = make_engine(db_url)
    factory = session_factory(engine)
    t0 = utcnow()
    try:
        async with factory() as s, s.begin():
            account = await store.create_account(s, "Alice", name_key("Alice"), None, t0)
            secret = await sessions.open_session(s, account, t0, 1, "x" * 500)
        async with factory() as s:
            (row,) = (await s.execute(text("SELECT id, user_agent FROM account_sessions"))).all()
        assert row[0] == sessions.session_id(secret) and secret not in row[0]
        assert row[1] == "x" * sessions.USER_AGENT_MAX

        async def seen_after(delta: timedelta) -> object:
            async with factory() as s, s.begin():
                found = await sessions.account_of(s, secret, t0 + delta)
                assert found is not None and found.name == "Alice"
            async with factory() as s:
                return (await store.session_row(s, sessions.session_id(secret)))[1]  # type: ignore[index]

        assert await seen_after(timedelta(seconds=30)) == t0  # not written again yet
        assert await seen_after(timedelta(minutes=2)) == t0 + timedelta(minutes=2)
        async with factory() as s, s.begin():
            assert await sessions.account_of(s, secret, t0 + timedelta(days=1, seconds=1)) is None
        async with factory() as s:
            assert await store.session_row(s, sessions.session_id(secret)) is None
            assert await sessions.account_of(s, "made-up", t0) is None
    finally:
        await engine.dispose()


async def test_a_disabled_account_is_signed_out_everywhere(sqlite_app: FastAPI) -> None:
    async with client(sqlite_app) as alice:
        me = await sign_up(alice, "Alice")
        async with sqlite_app.state.db_sessions() as s, s.begin():
            await store.set_disabled(s, me["id"], True)
        assert (await alice.get("/api/me")).status_code == 401


async def test_over_https_the_cookie_is_secure(sqlite_app: FastAPI) -> None:
    async with client(sqlite_app, origin="https://testserver",
                      base_url="https://testserver") as alice:
        r = await alice.post("/api/accounts", json={"name": "Alice", "password": "pw-pw-pw-1"})
        assert r.status_code == 201, r.text
        assert "Secure" in r.headers["set-cookie"] and "HttpOnly" in r.headers["set-cookie"]


@pytest.mark.parametrize("setting", ["PUBLIC_URL", "PUBLIC_ORIGIN"])  # and its old name
async def test_the_public_url_binds_passkeys_and_makes_the_cookie_secure(
    make_settings: Callable[..., Settings], setting: str,
) -> None:
    built = create_app(make_settings(BOT_WORKERS=0, **{setting: "https://coffee.example/"}))
    async with built.router.lifespan_context(built), client(
            built, origin="https://testserver", base_url="https://testserver") as browser:
        r = await browser.post("/api/accounts/passkey/begin", json={"name": "Alice"})
        assert r.json()["options"]["rp"]["id"] == "coffee.example"
        r = await browser.post("/api/accounts", json={"name": "Alice", "password": "pw-pw-pw-1"})
        assert "Secure" in r.headers["set-cookie"]
        device = Authenticator(origin="https://testserver")  # not the public origin
        r = await browser.post("/api/me/passkeys/begin", json={})
        r = await browser.post("/api/me/passkeys/finish",
                               json={"credential": device.create(r.json()["options"])})
        assert r.json()["error"]["code"] == "passkey_rejected"

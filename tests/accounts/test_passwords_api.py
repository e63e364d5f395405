"""Accounts with a password, over HTTP: sign up, unique names (look-alikes too), bots'
names reserved, sign in, wrong passwords and their delay, sign out."""

from __future__ import annotations

from datetime import timedelta

import pytest
from fastapi import FastAPI
from sqlalchemy import text

from server.accounts import ratelimit
from server.accounts.sessions import COOKIE

from .conftest import client, refused, sign_up

pytestmark = pytest.mark.asyncio


async def test_signing_up_signs_in_with_an_httponly_lax_cookie(sqlite_app: FastAPI) -> None:
    async with client(sqlite_app) as browser:
        r = await browser.post("/api/accounts", json={"name": " Alice ", "password": "pw-pw-pw-1"})
        assert r.status_code == 201 and r.json()["name"] == "Alice"
        cookie = r.headers["set-cookie"]
        assert cookie.startswith(f"{COOKIE}=") and "HttpOnly" in cookie
        assert "samesite=lax" in cookie.lower() and "Secure" not in cookie  # plain http here
        me = (await browser.get("/api/me")).json()
        assert me["name"] == "Alice" and me["password"] is True and me["passkeys"] == []


async def test_a_name_or_its_look_alike_is_taken_once(app: FastAPI) -> None:
    async with client(app) as a, client(app) as b:
        await sign_up(a, "Alice")
        for name in ("alice", "ALICE", "\u0410lice", "A lice"):
            r = await b.post("/api/accounts", json={"name": name, "password": "whatever1"})
            refused(r, 409, "name_taken")
        refused(await b.get("/api/me"), 401, "not_signed_in")


async def test_names_that_pass_for_bots_and_short_passwords_are_refused(
    sqlite_app: FastAPI,
) -> None:
    async with client(sqlite_app) as browser:
        for name in ("expert", "Bot B", "greedy bot"):
            r = await browser.post("/api/accounts", json={"name": name, "password": "pw-pw-pw"})
            refused(r, 422, "name_reserved")
        r = await browser.post("/api/accounts", json={"name": "Zoe", "password": "short"})
        refused(r, 422, "password_invalid")
        r = await browser.post("/api/accounts", json={"name": "   ", "password": "longenough"})
        refused(r, 422, "name_invalid")


async def test_password_sign_in_and_a_wrong_password(app: FastAPI) -> None:
    async with client(app) as a:
        await sign_up(a, "Alice", "correct horse")
    async with client(app) as b:
        r = await b.post("/api/sign-in/password", json={"name": "alice", "password": "wrong one"})
        refused(r, 401, "bad_credentials")
        r = await b.post("/api/sign-in/password", json={"name": "Nobody", "password": "x" * 9})
        refused(r, 401, "bad_credentials")  # the same answer: no name is given away
        r = await b.post("/api/sign-in/password",
                         json={"name": "ALICE", "password": "correct horse"})
        assert r.status_code == 200 and r.json()["name"] == "Alice"
        assert (await b.get("/api/me")).json()["name"] == "Alice"


async def test_guessing_from_one_address_delays_that_address_for_that_account_only(
        app: FastAPI) -> None:
    """Issue 41.6: failures count per (account, address); the owner elsewhere, and the
    guesser's address for another account, are not held up."""
    async with client(app, address="10.9.9.9") as a:
        await sign_up(a, "Alice", "correct horse")
        await sign_up(a, "Bob", "battery staple")
    async with client(app, address="10.1.0.1") as guesser:
        for i in range(ratelimit.FREE):
            r = await guesser.post("/api/sign-in/password",
                                   json={"name": "Alice", "password": f"guess {i}xx"})
            refused(r, 401, "bad_credentials")
        r = await guesser.post("/api/sign-in/password",  # even the right one now waits
                               json={"name": "Alice", "password": "correct horse"})
        refused(r, 429, "rate_limited")
        assert "60 seconds" in r.json()["error"]["message"]
        r = await guesser.post("/api/sign-in/password",
                               json={"name": "Bob", "password": "battery staple"})
        assert r.status_code == 200, r.text
    async with client(app, address="10.1.0.2") as owner:  # Alice, at her own address
        r = await owner.post("/api/sign-in/password",
                             json={"name": "Alice", "password": "correct horse"})
        assert r.status_code == 200, r.text


async def test_failures_under_other_names_do_not_hold_up_an_address(app: FastAPI) -> None:
    """Issue 41.6: five failures from one address used to lock every account from it."""
    async with client(app, address="10.3.0.1") as shared:
        await sign_up(shared, "Alice", "correct horse")
        for i in range(ratelimit.FREE + 2):
            r = await shared.post("/api/sign-in/password",
                                  json={"name": f"User{i}", "password": "guess guess"})
            refused(r, 401, "bad_credentials")
        r = await shared.post("/api/sign-in/password",
                              json={"name": "Alice", "password": "correct horse"})
        assert r.status_code == 200, r.text


async def test_an_unknown_name_is_delayed_as_an_account_would_be(app: FastAPI) -> None:
    async with client(app, address="10.3.0.2") as guesser:
        for i in range(ratelimit.FREE):
            r = await guesser.post("/api/sign-in/password",
                                   json={"name": "Nobody", "password": f"guess {i}xx"})
            refused(r, 401, "bad_credentials")
        r = await guesser.post("/api/sign-in/password",
                               json={"name": "Nobody", "password": "guess guess"})
        refused(r, 429, "rate_limited")


async def test_a_success_forgets_its_pairs_failures_only(app: FastAPI) -> None:
    async with client(app, address="10.3.0.3") as owner, \
            client(app, address="10.3.0.4") as guesser:
        await sign_up(owner, "Alice", "correct horse")
        for who in (owner, guesser):
            r = await who.post("/api/sign-in/password",
                               json={"name": "Alice", "password": "not it at all"})
            refused(r, 401, "bad_credentials")
        r = await owner.post("/api/sign-in/password",
                             json={"name": "Alice", "password": "correct horse"})
        assert r.status_code == 200, r.text
    async with app.state.db_sessions() as session:
        keys = (await session.execute(text("SELECT key FROM sign_in_attempts"))).scalars()
        assert list(keys) == [ratelimit.pair_key(ratelimit.account_who(1), "10.3.0.4")]


async def test_the_delay_grows_from_one_minute_to_fifteen() -> None:
    minutes = [ratelimit.delay(n) / timedelta(minutes=1) for n in range(ratelimit.FREE + 6)]
    assert minutes == [0, 0, 0, 0, 0, 1, 2, 4, 8, 15, 15]


async def test_signing_out_ends_the_session_on_the_server(sqlite_app: FastAPI) -> None:
    async with client(sqlite_app) as browser:
        await sign_up(browser, "Alice")
        secret = browser.cookies[COOKIE]
        r = await browser.post("/api/sign-out", json={})
        assert r.status_code == 200 and COOKIE not in browser.cookies
    async with client(sqlite_app, cookies={COOKIE: secret}) as replay:  # the old cookie, kept
        refused(await replay.get("/api/me"), 401, "not_signed_in")


async def test_a_changed_password_ends_the_other_sessions(sqlite_app: FastAPI) -> None:
    async with client(sqlite_app) as a, client(sqlite_app) as b:
        await sign_up(a, "Alice", "first pass")
        r = await b.post("/api/sign-in/password", json={"name": "Alice", "password": "first pass"})
        assert r.status_code == 200
        r = await a.post("/api/me/password", json={"password": "second pass", "current": "nope"})
        refused(r, 401, "bad_credentials")
        r = await a.post("/api/me/password",
                         json={"password": "second pass", "current": "first pass"})
        assert r.status_code == 200
        assert (await a.get("/api/me")).status_code == 200
        refused(await b.get("/api/me"), 401, "not_signed_in")

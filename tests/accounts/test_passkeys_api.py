"""Passkeys over HTTP, verified by the real `webauthn` package against a software
authenticator: sign up and sign in with one, another for a signed-in account; a replayed
answer (the same challenge twice), another site's answer and another account's
credential are refused."""

from __future__ import annotations

import pytest
from fastapi import FastAPI

from .authenticator import Authenticator
from .conftest import client, refused, sign_up, sign_up_with_passkey

pytestmark = pytest.mark.asyncio


async def _begin(browser) -> dict:  # type: ignore[no-untyped-def]
    r = await browser.post("/api/sign-in/passkey/begin", json={})
    assert r.status_code == 200, r.text
    options = r.json()["options"]
    assert options["rpId"] == "testserver" and options["userVerification"] == "required"
    return options


async def test_sign_up_with_a_passkey_then_sign_in_with_it(app: FastAPI) -> None:
    device = Authenticator()
    async with client(app) as browser:
        r = await browser.post("/api/accounts/passkey/begin", json={"name": "Alice"})
        options = r.json()["options"]
        assert options["rp"]["id"] == "testserver" and options["user"]["name"] == "Alice"
        assert options["authenticatorSelection"]["residentKey"] == "required"
        r = await browser.post("/api/accounts/passkey/finish",
                               json={"credential": device.create(options)})
        assert r.status_code == 201 and r.json()["name"] == "Alice"
        me = (await browser.get("/api/me")).json()
        assert me["password"] is False and len(me["passkeys"]) == 1
    async with client(app) as other_browser:
        options = await _begin(other_browser)
        r = await other_browser.post("/api/sign-in/passkey/finish",
                                     json={"credential": device.get(options)})
        assert r.status_code == 200 and r.json()["name"] == "Alice"
        me = (await other_browser.get("/api/me")).json()
        assert me["passkeys"][0]["last_used_at"] is not None


async def test_a_replayed_assertion_is_refused(sqlite_app: FastAPI) -> None:
    device = Authenticator()
    async with client(sqlite_app) as browser:
        await sign_up_with_passkey(browser, "Alice", device)
    async with client(sqlite_app) as thief:
        answer = device.get(await _begin(thief))
        assert (await thief.post("/api/sign-in/passkey/finish",
                                 json={"credential": answer})).status_code == 200
        await thief.post("/api/sign-out", json={})
        again = await thief.post("/api/sign-in/passkey/finish", json={"credential": answer})
        refused(again, 400, "passkey_rejected")
        refused(await thief.get("/api/me"), 401, "not_signed_in")


async def test_a_failed_answer_uses_up_its_challenge(sqlite_app: FastAPI) -> None:
    device = Authenticator()
    async with client(sqlite_app) as browser:
        await sign_up_with_passkey(browser, "Alice", device)
        await browser.post("/api/sign-out", json={})
        options = await _begin(browser)
        evil = Authenticator(origin="http://evil.example", credentials=device.credentials)
        r = await browser.post("/api/sign-in/passkey/finish",
                               json={"credential": evil.get(options)})
        refused(r, 400, "passkey_rejected")  # another site's origin in clientDataJSON
        r = await browser.post("/api/sign-in/passkey/finish",
                               json={"credential": device.get(options)})
        refused(r, 400, "passkey_rejected")  # that challenge is gone


async def test_an_answer_made_for_another_site_is_refused(sqlite_app: FastAPI) -> None:
    device = Authenticator()
    async with client(sqlite_app) as browser:
        await sign_up_with_passkey(browser, "Alice", device)
    async with client(sqlite_app) as browser:
        options = await _begin(browser)
        device.credentials[-1].rp_id = "evil.example"  # signed for another RP id
        r = await browser.post("/api/sign-in/passkey/finish",
                               json={"credential": device.get(options)})
        refused(r, 400, "passkey_rejected")


async def test_an_assertion_claiming_another_accounts_credential_is_refused(
    sqlite_app: FastAPI,
) -> None:
    alice, mallory = Authenticator(), Authenticator()
    async with client(sqlite_app) as a, client(sqlite_app) as m:
        await sign_up_with_passkey(a, "Alice", alice)
        await sign_up_with_passkey(m, "Mallory", mallory)
        await m.post("/api/sign-out", json={})
        answer = mallory.get(await _begin(m))
        answer["id"] = answer["rawId"] = alice.get({"challenge": "AA"})["id"]
        r = await m.post("/api/sign-in/passkey/finish", json={"credential": answer})
        refused(r, 400, "passkey_rejected")
        refused(await m.get("/api/me"), 401, "not_signed_in")


async def test_a_signed_in_player_adds_a_passkey_to_a_password_account(sqlite_app: FastAPI) -> None:
    device = Authenticator()
    async with client(sqlite_app) as browser:
        await sign_up(browser, "Alice")
        r = await browser.post("/api/me/passkeys/begin", json={})
        options = r.json()["options"]
        r = await browser.post("/api/me/passkeys/finish",
                               json={"credential": device.create(options)})
        assert r.status_code == 201, r.text
        assert len((await browser.get("/api/me")).json()["passkeys"]) == 1
        r = await browser.post("/api/me/passkeys/begin", json={})
        excluded = r.json()["options"]["excludeCredentials"]
        assert [c["id"] for c in excluded] == [device.get({"challenge": "AA"})["id"]]


async def test_an_add_passkey_request_made_for_another_account_is_refused(
    sqlite_app: FastAPI,
) -> None:
    device = Authenticator()
    async with client(sqlite_app) as a, client(sqlite_app) as b:
        await sign_up(a, "Alice")
        await sign_up(b, "Bob")
        options = (await a.post("/api/me/passkeys/begin", json={})).json()["options"]
        r = await b.post("/api/me/passkeys/finish", json={"credential": device.create(options)})
        refused(r, 400, "passkey_rejected")
        assert (await b.get("/api/me")).json()["passkeys"] == []


async def test_a_passkey_sign_up_for_a_name_taken_meanwhile_is_refused(sqlite_app: FastAPI) -> None:
    async with client(sqlite_app) as a, client(sqlite_app) as b:
        r = await a.post("/api/accounts/passkey/begin", json={"name": "Alice"})
        options = r.json()["options"]
        await sign_up(b, "alice")
        r = await a.post("/api/accounts/passkey/finish",
                         json={"credential": Authenticator().create(options)})
        refused(r, 409, "name_taken")

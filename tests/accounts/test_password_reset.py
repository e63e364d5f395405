"""A forgotten password, end to end in-process on SQLite and PostgreSQL, with a real SMTP
server (aiosmtpd) and the app's injected clock: an account confirms an e-mail address with a
mailed code; "forgot password" mails a one-time link that sets a new password (the sign-up's
rules), signs the browser in and ends every other session; the link works once and runs out
after 30 minutes; the limits per account, per mailbox and per client address hold; the
answer never tells whether an address has an account; the reset page's `next` stays on this
site."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator, Callable
from email.message import EmailMessage
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from server.config import Settings
from server.main import create_app
from server.rooms import NullJournal
from tests.clocks import FakeClock
from tests.notify.smtp import SmtpServer, body, code_in

from .conftest import PG_URL, client, refused, reset_postgres, sign_up, wait_for_the_last_server
from .test_next_path import FOREIGN

ADDRESS = "Hana.Cafe@Example.org"  # kept as given but for its domain; matched in any case
LINK = re.compile(r"http://play\.example/account/reset#token=([A-Za-z0-9_-]+)")


@contextlib.asynccontextmanager
async def mail_app(database: str, make_settings: Callable[..., Any], smtp: SmtpServer,
                   clock: FakeClock, **more: Any) -> AsyncIterator[FastAPI]:
    # http: an https PUBLIC_URL makes the sign-in cookie Secure, which this client would not send
    settings: dict[str, Any] = {"BOT_WORKERS": 0, **smtp.settings(),
                                "PUBLIC_URL": "http://play.example", **more}
    if database == "postgresql":
        reset_postgres(PG_URL)
        wait_for_the_last_server()
        settings["DATABASE_URL"] = PG_URL
    built = create_app(make_settings(**settings), clock=clock)
    async with built.router.lifespan_context(built):
        yield built


async def mails(smtp: SmtpServer, count: int, to: str | None = None,
                seconds: float = 10.0) -> list[EmailMessage]:
    """Until `count` messages (to `to`) have arrived, waiting without holding up the app's
    mail worker (it runs on this event loop)."""
    for _ in range(int(seconds / 0.05)):
        found = [m for m in smtp.received() if to is None or m["To"] == to]
        if len(found) >= count:
            return found
        await asyncio.sleep(0.05)
    return [m for m in smtp.received() if to is None or m["To"] == to]


def link_of(message: EmailMessage) -> str:
    found = LINK.search(body(message))
    assert found, body(message)
    return found.group(1)


async def confirmed(browser: httpx.AsyncClient, smtp: SmtpServer, address: str = ADDRESS,
                    before: int = 0) -> None:
    r = await browser.post("/api/me/email", json={"address": address, "lang": "en"})
    assert r.status_code == 200 and r.json()["state"] == "pending", r.text
    mail = (await mails(smtp, before + 1))[-1]
    assert mail["List-Unsubscribe"] is None  # the account's own mail, asked for
    r = await browser.post("/api/me/email/confirm", json={"code": code_in(mail)})
    assert r.status_code == 200 and r.json()["state"] == "confirmed", r.text
    assert r.json()["address"] == f"{address[0]}***@example.org"  # masked, even to its owner


@pytest.mark.asyncio
@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
async def test_a_forgotten_password_is_reset_by_the_mailed_link_once(
        database: str, make_settings: Callable[..., Any], smtp: SmtpServer) -> None:
    clock = FakeClock()
    async with (mail_app(database, make_settings, smtp, clock) as app,
                client(app, "10.0.0.1") as home, client(app, "10.0.0.2") as phone,
                client(app, "10.0.0.3") as stranger):
        await sign_up(home, "Hana", "old password")
        await confirmed(home, smtp)
        r = await phone.post("/api/sign-in/password",
                             json={"name": "Hana", "password": "old password"})
        assert r.status_code == 200
        listed = (await phone.get("/api/me/sessions")).json()["sessions"]
        assert len(listed) == 2 and sum(s["current"] for s in listed) == 1
        assert {s["address"] for s in listed} == {"10.0.0.1", "10.0.0.2"}

        # Forgotten, from a third browser: the link comes to the confirmed address.
        r = await stranger.post("/api/password/forgot",
                                json={"address": "hana.cafe@example.ORG", "lang": "ko"})
        assert (r.status_code, r.json()) == (202, {"ok": True})
        mail = (await mails(smtp, 2))[-1]
        assert mail["To"] == "Hana.Cafe@example.org" and "비밀번호" in str(mail["Subject"])
        token = link_of(mail)
        assert (await stranger.post("/api/password/reset/check",
                                    json={"token": token})).status_code == 200

        # The sign-up's rules for the new password; a refused one uses nothing up.
        refused(await stranger.post("/api/password/reset",
                                    json={"token": token, "password": "short"}),
                422, "password_invalid")
        r = await stranger.post("/api/password/reset",
                                json={"token": token, "password": "new password"})
        assert r.status_code == 200 and r.json()["name"] == "Hana", r.text
        assert (await stranger.get("/api/me")).json()["name"] == "Hana"  # signed in

        # Every other session ended; the old password no longer opens the account.
        refused(await home.get("/api/me"), 401, "not_signed_in")
        refused(await phone.get("/api/me"), 401, "not_signed_in")
        refused(await phone.post("/api/sign-in/password",
                                 json={"name": "Hana", "password": "old password"}),
                401, "bad_credentials")
        assert (await phone.post("/api/sign-in/password", json={
            "name": "Hana", "password": "new password"})).status_code == 200

        # Once only.
        refused(await home.post("/api/password/reset/check", json={"token": token}),
                409, "reset_invalid")
        refused(await home.post("/api/password/reset",
                                json={"token": token, "password": "third one!"}),
                409, "reset_invalid")

        # A new link runs out after 30 minutes (the injected clock).
        await stranger.post("/api/password/forgot", json={"address": ADDRESS})
        late = link_of((await mails(smtp, 3))[-1])
        clock.advance(31 * 60)
        refused(await stranger.post("/api/password/reset",
                                    json={"token": late, "password": "too late now"}),
                409, "reset_invalid")
        refused(await stranger.post("/api/password/reset",
                                    json={"token": "x" * 43, "password": "made up one"}),
                409, "reset_invalid")

        # The address is the account's own data: in its export, and gone with the account.
        export = (await stranger.get("/api/me/export")).json()["account"]
        assert export["email"]["address"] == "Hana.Cafe@example.org"
        assert (await stranger.post("/api/me/delete", json={"name": "Hana"})).status_code == 200
        await stranger.post("/api/password/forgot", json={"address": ADDRESS})
        assert len(await mails(smtp, 4, seconds=0.5)) == 3


@pytest.mark.asyncio
@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
async def test_the_answer_never_tells_whether_an_address_has_an_account(
        database: str, make_settings: Callable[..., Any], smtp: SmtpServer) -> None:
    """The same status and body for a confirmed address, an unconfirmed one and one nobody
    has; the limits that depend on the address are silent (no mail, same answer); the one
    per client address says so, whatever address it was asked for."""
    clock = FakeClock()
    async with (mail_app(database, make_settings, smtp, clock) as app,
                client(app, "10.0.1.1") as home, client(app, "10.0.1.2") as asker):
        await sign_up(home, "Bo")
        await confirmed(home, smtp, "bo@example.org")
        await sign_up(home, "Cy")
        r = await home.post("/api/me/email", json={"address": "cy@example.org"})
        assert r.json()["state"] == "pending"  # never confirmed: no link goes there
        answers = []
        for address in ("bo@example.org", "cy@example.org", "nobody@example.org",
                        "BO@example.org"):
            r = await asker.post("/api/password/forgot", json={"address": address})
            answers.append((r.status_code, r.content, r.headers.get("set-cookie")))
        assert len(set(answers)) == 1 and answers[0][:2] == (202, b'{"ok":true}'), answers
        bo = await mails(smtp, 3, to="bo@example.org")
        assert [m["Subject"] for m in bo[1:]] == ["Coffee Rush: set a new password"] * 2
        assert await mails(smtp, 1, to="nobody@example.org", seconds=0.3) == []
        assert len(await mails(smtp, 1, to="cy@example.org")) == 1  # its code
        assert len(await mails(smtp, 2, to="cy@example.org", seconds=0.3)) == 1  # only

        # The account's limit: 3 links an hour; a 4th request is answered alike, unmailed.
        r = await asker.post("/api/password/forgot", json={"address": "bo@example.org"})
        assert (r.status_code, r.content) == answers[0][:2]
        assert len(await mails(smtp, 4, to="bo@example.org")) == 4
        r = await asker.post("/api/password/forgot", json={"address": "bo@example.org"})
        assert (r.status_code, r.content) == answers[0][:2]
        assert len(await mails(smtp, 5, to="bo@example.org", seconds=0.5)) == 4

        # The mailbox's limit (5 a day, codes and links together, however spelled): an
        # hour on, the account may have links again, but the mailbox has had its 5.
        clock.advance(3600)
        r = await asker.post("/api/password/forgot", json={"address": "Bo@example.org"})
        assert (r.status_code, r.content) == answers[0][:2]
        assert len(await mails(smtp, 5, to="bo@example.org")) == 5
        r = await asker.post("/api/password/forgot", json={"address": "bo@example.org"})
        assert (r.status_code, r.content) == answers[0][:2]
        assert len(await mails(smtp, 6, to="bo@example.org", seconds=0.5)) == 5

        # The client address's limit (20 codes and links an hour) is said aloud: the
        # same for an address with an account and one without.
        async with client(app, "10.0.1.9") as flood:
            for n in range(20):
                r = await flood.post("/api/password/forgot",
                                     json={"address": f"x{n}@example.org"})
                assert r.status_code == 202
            for address in ("bo@example.org", "nobody@example.org"):
                refused(await flood.post("/api/password/forgot", json={"address": address}),
                        429, "code_flood")
        refused(await asker.post("/api/password/forgot", json={"address": "not one"}),
                422, "address_invalid")


@pytest.mark.asyncio
async def test_an_accounts_code_is_checked_as_a_seats_is(
        make_settings: Callable[..., Any], smtp: SmtpServer) -> None:
    """One check for both (server/notify/addresses.py `check_code`): a wrong guess is
    counted and says how many tries are left, the fifth spends the code, a code runs out
    after 15 minutes; meanwhile the confirmed address keeps working."""
    clock = FakeClock()
    async with (mail_app("sqlite", make_settings, smtp, clock) as app,
                client(app, "10.0.3.1") as home):
        await sign_up(home, "Gus")
        refused(await home.post("/api/me/email/confirm", json={"code": "123456"}),
                409, "code_expired")  # none sent yet
        await confirmed(home, smtp, "gus@example.org")
        clock.advance(61)
        r = await home.post("/api/me/email", json={"address": "gus2@example.org"})
        assert r.json()["state"] == "confirmed" and r.json()["pending"] == "g***@example.org"
        code = code_in((await mails(smtp, 1, to="gus2@example.org"))[0])
        wrong = "000000" if code != "000000" else "111111"
        for left in (4, 3, 2, 1, 0):
            r = await home.post("/api/me/email/confirm", json={"code": wrong})
            refused(r, 422, "code_wrong")
            assert f"{left} tries left" in r.json()["error"]["message"]
        refused(await home.post("/api/me/email/confirm", json={"code": code}),
                409, "code_expired")  # spent by the fifth wrong guess
        assert (await home.get("/api/me/email")).json()["address"] == "g***@example.org"

        clock.advance(61)
        await home.post("/api/me/email", json={"address": "gus2@example.org"})
        late = code_in((await mails(smtp, 2, to="gus2@example.org"))[-1])
        clock.advance(15 * 60)
        refused(await home.post("/api/me/email/confirm", json={"code": late}),
                409, "code_expired")
        clock.advance(61)
        await home.post("/api/me/email", json={"address": "gus2@example.org"})
        fresh = code_in((await mails(smtp, 3, to="gus2@example.org"))[-1])
        r = await home.post("/api/me/email/confirm", json={"code": f" {fresh} "})
        assert r.json()["state"] == "confirmed" and r.json()["pending"] is None, r.text
        refused(await home.post("/api/me/email/confirm", json={"code": fresh}),
                409, "code_expired")  # used once


@pytest.mark.asyncio
async def test_sessions_are_listed_and_signed_out_one_or_all(
        sqlite_app: FastAPI) -> None:
    app = sqlite_app
    async with client(app, "10.0.2.1", headers={"user-agent": "Mozilla/5.0 (X11; Linux) "
                                                "Chrome/130.0"}) as home, \
            client(app, "10.0.2.2") as phone, client(app, "10.0.2.3") as tablet:
        await sign_up(home, "Dee")
        for other in (phone, tablet):
            assert (await other.post("/api/sign-in/password", json={
                "name": "Dee", "password": "correct horse"})).status_code == 200
        listed = (await home.get("/api/me/sessions")).json()["sessions"]
        assert len(listed) == 3
        mine = next(s for s in listed if s["current"])
        assert mine["user_agent"].endswith("Chrome/130.0") and mine["address"] == "10.0.2.1"
        assert all(len(s["id"]) == 24 for s in listed)  # a name for it, never the cookie's hash
        phones = next(s for s in listed if s["address"] == "10.0.2.2")

        r = await home.post("/api/me/sessions/end", json={"session": phones["id"]})
        assert r.json() == {"ok": True, "current": False}
        refused(await phone.get("/api/me"), 401, "not_signed_in")
        assert (await tablet.get("/api/me")).status_code == 200
        refused(await home.post("/api/me/sessions/end", json={"session": phones["id"]}),
                404, "session_unknown")

        # Another account's session is not this one's to end.
        async with client(app, "10.0.2.9") as other:
            await sign_up(other, "Eve")
            refused(await other.post("/api/me/sessions/end", json={"session": mine["id"]}),
                    404, "session_unknown")

        r = await home.post("/api/me/sessions/end-all", json={})
        assert r.status_code == 200 and 'cr_session=""' in r.headers["set-cookie"]
        for browser in (home, tablet):
            refused(await browser.get("/api/me"), 401, "not_signed_in")


@pytest.mark.asyncio
async def test_no_mail_no_reset(sqlite_app: FastAPI) -> None:
    """Without SMTP_HOST there is no address to confirm and nowhere to send a link."""
    async with client(sqlite_app) as browser:
        refused(await browser.post("/api/password/forgot", json={"address": "a@example.org"}),
                409, "mail_off")
        await sign_up(browser, "Flo")
        refused(await browser.get("/api/me/email"), 409, "mail_off")


def test_the_reset_page_goes_on_only_to_this_site() -> None:
    """The page a mailed link opens keeps `next` as /account does (issue 41.5's open
    redirect stays fixed): a path of this site, resolved, else nothing."""
    app = create_app(Settings(_env_file=None, ALLOWED_HOSTS="testserver", BOT_WORKERS=0),
                     journal=NullJournal())
    with TestClient(app) as browser:
        page = browser.get(f"/account/reset?next={quote('/r/../r/ABCD-EFGH', safe='')}").text
        assert 'data-next="/r/ABCD-EFGH"' in page and 'id="reset-form"' in page
        for raw in FOREIGN:
            assert "data-next" not in browser.get(
                f"/account/reset?next={quote(raw, safe='')}").text, raw

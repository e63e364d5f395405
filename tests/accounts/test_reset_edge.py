"""The routes of a forgotten password and of the account's sessions and address against a
real server (`python -m server`, tests/serving.py), attacked at the HTTP edge: a body
trickled byte by byte holds no worker and blocks nobody else's POST (408 slow_body at its
deadline), a body over the cap is refused before it is read (413 too_large), another
site's Origin is refused (403 forbidden_origin) and changes nothing, and a burst from one
address is limited (429, code_flood or resend_slow; the reset link's check and the reset,
and the sessions' routes: rate_limited, issue 46) while another address is served.

Found by these tests and fixed: a burst of "forgot password" lost a request to SQLite's
busy wait (500) and, on PostgreSQL, held every connection of the pool waiting for the
client's lock (the reset links and the mail worker failed for want of one); a burst of
`/api/me/email` for an account without an address row yet failed all but one with 500
(the row created twice); a burst of resets by one valid link queued an Argon2 hash each
in the hashing turn every sign-in waits in."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from db.conftest import PG_URL, reset_postgres

import server.api.password_reset as password_reset
from tests.clocks import FakeClock
from tests.notify.smtp import SmtpServer
from tests.raw_http import connect, head, read_answer, status_and_code
from tests.serving import CLIENT_KEEPALIVE_EXPIRY, served_process

from .conftest import (
    LOADED_MACHINE_DB_TIMEOUT,
    client,
    refused,
    sign_up,
    wait_for_the_last_server,
)
from .test_password_reset import confirmed, link_of, mail_app, mails

pytestmark = pytest.mark.timeout(300)
BODY_TIMEOUT = "2"  # the shared server's body deadline (s): short, so the trickles end soon
POSTS = ("/api/password/forgot", "/api/password/reset", "/api/password/reset/check",
         "/api/me/email", "/api/me/email/confirm", "/api/me/sessions/end",
         "/api/me/sessions/end-all")


@contextlib.contextmanager
def live(folder: Path, engine: str = "sqlite") -> Iterator[tuple[str, SmtpServer, Path]]:
    """A real server with mail (a real SMTP server in this process), trusting the test's
    X-Forwarded-For from 127.0.0.1; its base URL, the SMTP server and its log."""
    smtp = SmtpServer()
    smtp.start()
    settings = {k: str(v) for k, v in smtp.settings().items()}
    settings.update(BOT_WORKERS="0", FORWARDED_ALLOW_IPS="127.0.0.1",
                    HTTP_BODY_TIMEOUT=BODY_TIMEOUT, DB_TIMEOUT=LOADED_MACHINE_DB_TIMEOUT)
    if engine == "postgresql":
        reset_postgres(PG_URL)
        wait_for_the_last_server()
        settings["DATABASE_URL"] = PG_URL
    log = folder / "server.log"
    try:
        with log.open("wb") as stderr, served_process(folder / "db.sqlite", stderr,
                                                      **settings) as (url, _):
            yield url, smtp, log
    finally:
        smtp.stop()


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, SmtpServer]]:
    with live(tmp_path_factory.mktemp("reset-edge")) as (url, smtp, log):
        yield url, smtp
    assert b"Traceback" not in log.read_bytes()


def browser(url: str, address: str, origin: str | None = None) -> httpx.AsyncClient:
    """A browser at `address` (X-Forwarded-For) on this site, or on `origin`; it lets an idle
    connection go before the server does (a burst's connections wait for the next one)."""
    limits = httpx.Limits(max_connections=200, keepalive_expiry=CLIENT_KEEPALIVE_EXPIRY)
    return httpx.AsyncClient(base_url=url, timeout=60, limits=limits,
                             headers={"x-forwarded-for": address, "origin": origin or url})


async def signed_up(url: str, address: str, name: str) -> str:
    """A new account's session cookie."""
    async with browser(url, address) as b:
        await sign_up(b, name)
        return b.cookies["cr_session"]


def test_trickled_bodies_hold_no_worker_and_block_no_other_post(shared) -> None:
    """A body sent a byte at a time to each route is answered 408 slow_body at the body's
    deadline; meanwhile another address signs in and asks for a link as usual."""
    url, _ = shared
    cookie = asyncio.run(signed_up(url, "10.5.0.1", "Trickle"))
    trickles = [connect(url, "127.0.8.1") for _ in POSTS]
    served: list[int] = []
    try:
        for s, path in zip(trickles, POSTS, strict=True):
            s.sendall(head(url, "POST", path, Content_Type="application/json",
                           Content_Length="400", Origin=url, Cookie=f"cr_session={cookie}")
                      + b'{"address": "')
            s.setblocking(False)
        answers: dict[int, bytes] = {}
        with httpx.Client(base_url=url, timeout=30, headers={
                "x-forwarded-for": "10.5.0.2", "origin": url}) as other:
            for _ in range(200):  # 0.1 s a round: the drip would last 20 s
                for i, s in enumerate(trickles):
                    with contextlib.suppress(BlockingIOError, ConnectionResetError):
                        answers[i] = answers.get(i, b"") + s.recv(65536)
                    if i not in answers:
                        with contextlib.suppress(BlockingIOError, OSError):
                            s.sendall(b"a")
                served.append(other.post("/api/sign-in/password", json={
                    "name": "Trickle", "password": "correct horse"}).status_code)
                served.append(other.post("/api/password/forgot", json={
                    "address": f"t{len(served)}@example.org"}).status_code)
                if len(answers) == len(trickles):
                    break
                time.sleep(0.1)
        for i, s in enumerate(trickles):
            s.setblocking(True)
            answers[i] += read_answer(s, timeout=5)
    finally:
        for s in trickles:
            s.close()
    assert [status_and_code(answers[i]) for i in range(len(POSTS))] == [
        (408, "slow_body")] * len(POSTS)
    # Every other POST was served while the trickles lasted (the forgot requests until the
    # client's 20 an hour).
    assert set(served[::2]) == {200}
    assert served[1::2][:20] == [202] * min(20, len(served[1::2]))


def test_bodies_over_the_cap_are_refused_unread_and_long_fields_with_a_code(shared) -> None:
    """64 KiB a body (HTTP_MAX_BODY): announced or chunked, a larger one gets 413 too_large
    before the route runs; a field over its length is 422 with a code."""
    url, _ = shared
    cookie = asyncio.run(signed_up(url, "10.6.0.1", "Bulky"))
    for path in POSTS:
        with connect(url, "127.0.9.1") as s:
            s.sendall(head(url, "POST", path, Content_Type="application/json",
                           Content_Length=str(70_000), Origin=url,
                           Cookie=f"cr_session={cookie}"))
            assert status_and_code(read_answer(s)) == (413, "too_large"), path
        with connect(url, "127.0.9.2") as s:
            s.sendall(head(url, "POST", path, Content_Type="application/json",
                           Transfer_Encoding="chunked", Origin=url,
                           Cookie=f"cr_session={cookie}"))
            with contextlib.suppress(OSError):  # refused mid-way: the server hangs up
                for _ in range(5):
                    s.sendall(b"4000\r\n" + b" " * 0x4000 + b"\r\n")
            assert status_and_code(read_answer(s)) == (413, "too_large"), path
    with httpx.Client(base_url=url, timeout=30, cookies={"cr_session": cookie}, headers={
            "x-forwarded-for": "10.6.0.1", "origin": url}) as b:
        for path, body in (("/api/password/forgot", {"address": "a" * 400 + "@example.org"}),
                           ("/api/password/reset", {"token": "t" * 300,
                                                    "password": "correct horse"}),
                           ("/api/me/email", {"address": "a@example.org", "lang": "x" * 9}),
                           ("/api/me/sessions/end", {"session": "s" * 65})):
            r = b.post(path, json=body)
            assert r.status_code == 422 and r.json()["error"]["code"] == "malformed", r.text


def test_another_sites_origin_is_refused_and_changes_nothing(shared) -> None:
    url, smtp = shared
    cookie = asyncio.run(signed_up(url, "10.7.0.1", "Guarded"))
    before = len(smtp.received())
    bodies: dict[str, dict[str, Any]] = {
        "/api/password/forgot": {"address": "guarded@example.org"},
        "/api/password/reset": {"token": "x" * 43, "password": "evil password"},
        "/api/password/reset/check": {"token": "x" * 43},
        "/api/me/email": {"address": "evil@example.org"},
        "/api/me/email/confirm": {"code": "123456"},
        "/api/me/sessions/end": {"session": "x" * 24},
        "/api/me/sessions/end-all": {},
    }
    assert set(bodies) == set(POSTS)
    for origin in ("https://evil.example", "null", f"{url}.evil.example"):
        with httpx.Client(base_url=url, timeout=30, cookies={"cr_session": cookie}, headers={
                "x-forwarded-for": "10.7.0.1", "origin": origin}) as evil:
            for path, body in bodies.items():
                r = evil.post(path, json=body)
                assert r.status_code == 403, (origin, path, r.text)
                assert r.json()["error"]["code"] == "forbidden_origin"
    with httpx.Client(base_url=url, timeout=30, cookies={"cr_session": cookie}, headers={
            "x-forwarded-for": "10.7.0.1", "origin": url}) as mine:
        assert mine.get("/api/me").status_code == 200  # not signed out
        assert mine.get("/api/me/email").json()["state"] == "none"  # no address added
        assert len(mine.get("/api/me/sessions").json()["sessions"]) == 1
    assert len(smtp.received()) == before


async def _burst(http: httpx.AsyncClient, path: str,
                 bodies: list[dict[str, Any]]) -> Counter[tuple[int, str | None]]:
    answers = await asyncio.gather(*(http.post(path, json=body) for body in bodies))
    return Counter((r.status_code, r.json().get("error", {}).get("code")) for r in answers)


@pytest.mark.parametrize("engine", ["sqlite", "postgresql"])
def test_a_burst_from_one_address_is_limited_and_another_address_is_served(
        engine: str, tmp_path: Path) -> None:
    with live(tmp_path, engine) as (url, smtp, log):
        asyncio.run(_bursts(url, smtp))
    text = log.read_text()
    assert "Traceback" not in text and "ERROR" not in text, text[-3000:]


async def _bursts(url: str, smtp: SmtpServer) -> None:
    async with browser(url, "10.8.0.1") as owner, browser(url, "10.8.0.2") as flood, \
            browser(url, "10.8.0.3") as other:
        # "Forgot password", 100 at once from one address: its 20 an hour, then code_flood.
        await sign_up(owner, "Owner")
        await confirmed(owner, smtp, "owner@example.org")
        burst = await _burst(flood, "/api/password/forgot",
                             [{"address": f"f{i}@example.org"} for i in range(100)])
        assert burst == {(202, None): 20, (429, "code_flood"): 80}, burst
        r = await other.post("/api/password/forgot", json={"address": "owner@example.org"})
        assert r.status_code == 202, r.text
        token = link_of((await mails(smtp, 2, to="owner@example.org"))[-1])

        # A new address, 30 at once for an account that had none: one code, the rest
        # "sent just now" (each made the account's address row: 500 for all but one).
        async with browser(url, "10.8.0.5") as eager:
            await sign_up(eager, "Eager")
            burst = await _burst(eager, "/api/me/email",
                                 [{"address": f"e{i}@example.org"} for i in range(30)])
        assert burst[(200, None)] == 1 and sum(burst.values()) == 30, burst
        assert set(burst) <= {(200, None), (429, "resend_slow"), (429, "code_flood")}, burst

        # One link, 30 resets at once: the address's RESET_RATE (10) are served, one sets
        # the password, the others find it used; the rest are refused unread (issue 46).
        burst = await _burst(flood, "/api/password/reset",
                             [{"token": token, "password": f"new password {i}"}
                              for i in range(30)])
        assert burst == {(200, None): 1, (409, "reset_invalid"): 9,
                         (429, "rate_limited"): 20}, burst
        # Guessing links: 10 checks a minute from one address, and another is served.
        async with browser(url, "10.8.0.6") as guesser:
            burst = await _burst(guesser, "/api/password/reset/check",
                                 [{"token": f"guess{i}"} for i in range(100)])
        assert burst == {(409, "reset_invalid"): 10, (429, "rate_limited"): 90}, burst
        r = await other.post("/api/password/reset/check", json={"token": "guess"})
        assert r.status_code == 409 and r.json()["error"]["code"] == "reset_invalid", r.text
        async with browser(url, "10.8.0.4") as fresh:
            await sign_up(fresh, "Fresh")
            answers = await asyncio.gather(*(fresh.get("/api/me/sessions") for _ in range(40)))
            assert Counter(r.status_code for r in answers) == {200: 30, 429: 10}
            assert {r.json()["error"]["code"] for r in answers if r.status_code == 429} == {
                "rate_limited"}
            r = await fresh.post("/api/me/sessions/end-all", json={})
            assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
            assert (await fresh.get("/api/me")).status_code == 200  # nothing was ended
            # the same account from another address is served
            async with browser(url, "10.8.0.7") as elsewhere:
                elsewhere.cookies.update(fresh.cookies)
                listed = await elsewhere.get("/api/me/sessions")
                assert listed.status_code == 200 and len(listed.json()["sessions"]) == 1


@pytest.mark.asyncio
async def test_a_burst_of_resets_by_one_link_hashes_one_password(
        make_settings: Any, smtp: SmtpServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """The hashing turn is every sign-in's: a burst of one link's resets must not queue a
    hash each (it did: all passed the link's check before the first had used it)."""
    hashed: list[str] = []
    real = password_reset.hash_password

    def counted(password: str, **kwargs: Any) -> str:
        hashed.append(password)
        return real(password, **kwargs)

    monkeypatch.setattr(password_reset, "hash_password", counted)
    async with (mail_app("sqlite", make_settings, smtp, FakeClock(), RESET_RATE=100) as app,
                client(app, "10.0.4.1") as home, client(app, "10.0.4.2") as flood):
        await sign_up(home, "Ida")
        await confirmed(home, smtp, "ida@example.org")
        await flood.post("/api/password/forgot", json={"address": "ida@example.org"})
        token = link_of((await mails(smtp, 2, to="ida@example.org"))[-1])
        answers = await asyncio.gather(*(flood.post("/api/password/reset", json={
            "token": token, "password": f"new password {i}"}) for i in range(20)))
        assert sorted(r.status_code for r in answers) == [200] + [409] * 19
        for r in answers:
            if r.status_code == 409:
                refused(r, 409, "reset_invalid")
    assert len(hashed) == 1, len(hashed)

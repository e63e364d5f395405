"""International addresses (issue 41.17), on a real server with a real SMTP server: a
domain in any script (IDN) is accepted and kept and mailed in its ASCII (punycode) form;
a local part with non-ASCII letters is refused with a reason that says so
(`address_not_ascii`: the mail path here does not use SMTPUTF8), not as "not an address"."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.serving import served

from .smtp import SmtpServer


@pytest.fixture
def url(tmp_path: Path, smtp: SmtpServer) -> Iterator[str]:
    settings = {k: str(v) for k, v in smtp.settings().items()}
    with served(tmp_path / "coffee-rush.db", BOT_WORKERS="0", **settings) as u:
        yield u


def _give(url: str, address: str) -> httpx.Response:
    with httpx.Client(base_url=url, headers={"origin": url}, timeout=30) as browser:
        code = browser.post("/api/rooms", json={"players": 2, "mode": "turn_based"}).json()["code"]
        token = browser.post(f"/api/rooms/{code}/join", json={"name": "Ana"}).json()["seat_token"]
        return browser.post(f"/api/rooms/{code}/email", json={"token": token, "address": address})


def test_an_idn_domain_is_accepted_and_mailed_in_punycode(url: str, smtp: SmtpServer) -> None:
    for address in ("ana@bücher.example", "ana@ÄPFEL.example", "ana@例え.テスト"):
        r = _give(url, address)
        assert r.status_code == 200, (address, r.text)
    smtp.wait_for(3)
    assert sorted(m["To"] for m in smtp.received()) == [
        "ana@xn--bcher-kva.example", "ana@xn--pfel-koa.example", "ana@xn--r8jz45g.xn--zckzah"]


@pytest.mark.parametrize("address", ["josé@example.org", "ана@пример.рф", "用户@例子.广告"])
def test_a_non_ascii_local_part_is_refused_saying_why(url: str, address: str) -> None:
    r = _give(url, address)
    assert r.status_code == 422 and r.json()["error"]["code"] == "address_not_ascii", r.text


def test_what_is_no_address_at_all_is_still_address_invalid(url: str) -> None:
    for address in ("ana@", "ana@bücher", "ana@-x-.example", "@bücher.example"):
        r = _give(url, address)
        assert r.json()["error"]["code"] == "address_invalid", (address, r.text)

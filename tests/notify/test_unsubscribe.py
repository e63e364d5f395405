"""Unsubscribing as RFC 8058 has it (issue 41.10), through a real server and SMTP server:
every message carries `List-Unsubscribe: <https://...>` as plain ASCII on one line, the
`List-Unsubscribe-Post: List-Unsubscribe=One-Click` that offers the one-click POST, a
`Date` and a `Message-ID`. A POST to the link unsubscribes; a GET (what link scanners and
previews do) changes nothing and shows a page whose button sends that POST."""

from __future__ import annotations

import email
import email.policy
import re
from email.utils import parsedate_to_datetime

import httpx
import pytest

from tests.persist.live import Server

from .live import PUBLIC_URL, mail_server
from .smtp import SmtpServer
from .tables import turn_based_table

__all__ = ["mail_server"]

ADDRESS = "bo@example.org"
ONE_CLICK = {"List-Unsubscribe": "One-Click"}


def status(api: httpx.Client, code: str, token: str) -> str:
    return api.post(f"/api/rooms/{code}/email/status", json={"token": token}).json()["state"]


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_the_headers_say_one_click_unencoded_and_dated(
        mail_server: Server, smtp: SmtpServer) -> None:
    with httpx.Client(base_url=mail_server.http, timeout=10) as api:
        turn_based_table(api, smtp, ADDRESS)
    raw = smtp.received_raw()[0]
    head = raw.split(b"\r\n\r\n", 1)[0].decode("ascii").replace("\r\n", "\n")
    line = re.search(r"^List-Unsubscribe: (.*)$", head, re.M)
    assert line, head
    assert "=?" not in line.group(1)  # not RFC 2047-encoded
    assert re.fullmatch(re.escape(PUBLIC_URL) + r"/unsubscribe/\d+\.[0-9a-f]{40}",
                        line.group(1).removeprefix("<").removesuffix(">"))
    parsed = email.message_from_bytes(raw, policy=email.policy.default)
    assert parsed["List-Unsubscribe"] == line.group(1)
    assert parsed["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert parsedate_to_datetime(str(parsed["Date"])).tzinfo is not None
    assert re.fullmatch(r"<[0-9a-f]{32}@example\.org>", str(parsed["Message-ID"]))


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_a_get_asks_and_a_post_unsubscribes(mail_server: Server, smtp: SmtpServer) -> None:
    with httpx.Client(base_url=mail_server.http, timeout=10) as api:
        code, tokens = turn_based_table(api, smtp, ADDRESS)
        link = str(smtp.received()[0]["List-Unsubscribe"]).strip("<>")
        path = link.removeprefix(PUBLIC_URL)
        # A link scanner, a preview, a browser: nothing changes; the browser gets a button.
        assert api.get(path).status_code == 200
        page = api.get(path, headers={"Accept": "text/html"})
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        form = re.search(r'<form[^>]*method="post"[^>]*>(.*?)</form>', page.text, re.S)
        assert form, page.text
        assert 'name="List-Unsubscribe" value="One-Click"' in form.group(1)
        assert re.search(r"<button[^>]*type=\"submit\"", form.group(1))
        assert status(api, code, tokens[1]) == "confirmed"
        # The mail provider's one-click POST (no Origin, a form body): unsubscribed.
        r = api.post(path, data=ONE_CLICK)
        assert r.status_code == 200, r.text
        assert status(api, code, tokens[1]) == "unsubscribed"
        # The page's button, again (same site): said so, still unsubscribed.
        again = api.post(path, data=ONE_CLICK, headers={
            "Accept": "text/html", "Origin": mail_server.http})
        assert again.status_code == 200 and 'data-i18n="unsub.done.title"' in again.text
        # A link made for another address is refused, whichever way it comes.
        row, mac = path.rsplit("/", 1)[1].split(".")
        forged = path.replace(f"{row}.{mac}", f"{int(row) + 1}.{mac}")
        assert api.post(forged, data=ONE_CLICK).status_code == 403
        assert api.get(forged, headers={"Accept": "text/html"}).status_code == 403
        # Form bodies from anywhere are taken on these links only.
        assert api.post("/api/rooms", data=ONE_CLICK).status_code == 415

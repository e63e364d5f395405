"""At most 5 confirmation codes a day reach one mailbox (issue 41.9), as the docs say:
spellings of one mailbox (case, a +tag, Gmail's dots) count as one, whatever tables, seats
and client addresses ask, even all at once."""

from __future__ import annotations

from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from server.notify.addresses import MAX_CODES_PER_MAILBOX, mailbox
from tests.persist.live import Server

from .live import mail_server, seat_of_new_table
from .smtp import SmtpServer

__all__ = ["mail_server"]

SPELLINGS = ["Bo.Smith@gmail.com", "bo.smith+rush@GMAIL.COM", "BOSMITH@googlemail.com",
             "b.o.smith+{n}@Gmail.com", "Bo.Smith+table{n}@gmail.com", "bosmith@GoogleMail.com"]


def test_the_documented_cap_is_five() -> None:
    assert MAX_CODES_PER_MAILBOX == 5


@pytest.mark.parametrize(("spelling", "canonical"), [
    ("Bo.Smith+rush@GMail.com", "bosmith@gmail.com"),
    ("b.o.s.m.i.t.h@googlemail.com", "bosmith@gmail.com"),
    ("Cy+games@Example.ORG", "cy@example.org"),
    ("C.y@example.org", "c.y@example.org"),  # dots matter outside Gmail
    ("+x@example.org", "+x@example.org"),  # nothing before the tag: kept as it is
])
def test_one_mailbox_whatever_its_spelling(spelling: str, canonical: str) -> None:
    assert mailbox(spelling) == canonical


def test_spellings_from_many_tables_and_clients_get_five_codes(
        mail_server: Server, smtp: SmtpServer) -> None:
    with httpx.Client(base_url=mail_server.http, timeout=30) as api:
        seats = [seat_of_new_table(api) for _ in range(12)]

        def ask(n: int) -> tuple[int, str]:
            code, tokens = seats[n]
            address = SPELLINGS[n % len(SPELLINGS)].format(n=n)
            r = api.post(f"/api/rooms/{code}/email", json={"token": tokens[1],
                                                           "address": address},
                         headers={"X-Forwarded-For": f"10.0.0.{n}"})
            return r.status_code, "" if r.is_success else r.json()["error"]["code"]

        with ThreadPoolExecutor(12) as pool:
            answers = Counter(pool.map(ask, range(12)))
    assert answers == {(200, ""): 5, (429, "resend_slow"): 7}
    assert len(smtp.wait_for(6, timeout=3, kind="code")) == 5

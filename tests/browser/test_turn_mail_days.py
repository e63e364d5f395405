"""Issue 30's "done when", in Chromium: two players, each in a browser of their own, play a
turn-based game over two simulated days (the server's clock moved by the test) and come
back only through their mail: each turn sends exactly one "it's your turn" e-mail, to the
player whose turn it is, received by a real SMTP server in this process; its link opens
that player's own seat in their browser (which never held the seat's token otherwise),
they play the turn by clicking, and close the page. After a handful of turns the one to
act lets their time and bank run out; the other is told so by mail, and its link brings
them back to end the game as abandoned."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.notify.smtp import SmtpServer, code_in, kind_of, link_in
from tests.serving import free_port

from .clocked import Clock, clocked_server, clocked_settings, room_of
from .ui import perform, settled

pytestmark = [pytest.mark.browser, pytest.mark.timeout(90)]
HOUR = 3600
DAY = 24 * HOUR
NAMES = ("Ana", "Bo")
ADDRESSES = ("ana@example.org", "bo@example.org")
TURNS = 4  # each plays twice


def _confirm(url: str, smtp: SmtpServer, code: str, token: str, address: str) -> None:
    before = len([m for m in smtp.received() if kind_of(m) == "code"])
    r = httpx.post(f"{url}/api/rooms/{code}/email", json={"token": token, "address": address})
    assert r.status_code == 200, r.text
    mail = smtp.wait_for(before + 1, kind="code")[-1]
    r = httpx.post(f"{url}/api/rooms/{code}/email/confirm",
                   json={"token": token, "code": code_in(mail)})
    assert r.status_code == 200 and r.json()["state"] == "confirmed", r.text


def _turn_mails(smtp: SmtpServer) -> list[Any]:
    return [m for m in smtp.received() if kind_of(m) == "turn"]


def test_two_players_play_by_mail_over_two_days(
        browser: Any, smtp: SmtpServer, tmp_path: Path) -> None:
    clock, port = Clock(), free_port()
    url = f"http://127.0.0.1:{port}"
    settings = clocked_settings(tmp_path, **{**smtp.settings(), "PUBLIC_URL": url})
    with clocked_server(settings, clock, port) as (_, app):
        made = httpx.post(f"{url}/api/rooms", json={
            "players": 2, "mode": "turn_based", "clock": {"turn": DAY, "bank": 3 * DAY}}).json()
        code, host = made["code"], made["host_token"]
        tokens = [httpx.post(f"{url}/api/rooms/{code}/join", json={"name": n}).json()[
            "seat_token"] for n in NAMES]
        for token, address in zip(tokens, ADDRESSES, strict=True):
            _confirm(url, smtp, code, token, address)
        assert httpx.post(f"{url}/api/rooms/{code}/start", json={"token": host}).is_success
        room = room_of(app, code)
        errors: list[str] = []
        contexts = [browser.new_context(locale="en-US", reduced_motion="reduce")
                    for _ in NAMES]
        try:
            for turn in range(TURNS):
                seat = room.game.current
                mails = smtp.wait_for(turn + 1, kind="turn")
                assert len(mails) == turn + 1, f"turn {turn}: {len(mails)} mails"
                assert mails[-1]["To"] == ADDRESSES[seat]  # one mail, to the one to act
                link = link_in(mails[-1], f"{url}/r/{code}#seat=")
                page = contexts[seat].new_page()
                page.set_default_timeout(10_000)
                page.on("pageerror", lambda exc: errors.append(str(exc)))
                page.goto(link)  # the mail's link: this browser's way to its seat
                settled(page)
                expect(page.locator("#table-root")).to_have_class(re.compile(r"\bmy-turn\b"))
                while room.game.current == seat:  # the turn, clicked through
                    action = room.view(seat)["game"]["legal"][-1]
                    perform(page, action, room.game)
                page.close()  # gone until the next mail
                clock.advance(11 * HOUR)  # four turns: most of two days
            time.sleep(0.5)  # a mail that should not exist would have been sent by now
            assert len(_turn_mails(smtp)) == TURNS + 1  # the next player's, waiting
            assert clock.now - 1000 >= 44 * HOUR

            # The player to act lets their day and bank run out; the other hears of it by
            # one more mail, whose link brings them back to their seat, where they end the
            # game, which is stored as abandoned.
            late = room.game.current
            clock.advance(4 * DAY)
            mails = smtp.wait_for(TURNS + 2, kind="turn")  # the late seat's mail
            assert len(mails) == TURNS + 2, f"{len(mails)} mails"
            assert mails[-1]["To"] == ADDRESSES[1 - late]
            assert NAMES[late] in str(mails[-1]["Subject"])  # "Ana ran out of time"
            page = contexts[1 - late].new_page()
            page.set_default_timeout(10_000)
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(link_in(mails[-1], f"{url}/r/{code}#seat="))
            page.get_by_role("button", name="End the game (abandoned)").click()
            expect(page.locator("#prompt")).to_have_text("This table has closed.")
            games = httpx.get(f"{url}/api/games").json()["items"]
            assert games[0]["end_reason"] == "abandoned"
        finally:
            for ctx in contexts:
                ctx.close()
        assert not errors, errors

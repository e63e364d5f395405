"""Turn-based play in the browser (one Chromium test): the host opens a turn-based table
from the lobby with a long clock; a player gives their seat an e-mail address and confirms
it with the code read from a real SMTP server; when it is their turn they get the mail, and
the lobby lists the table first with "Your turn" and counts it in the page title."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import expect

from tests.notify.smtp import SmtpServer, code_in, link_in
from tests.persist.live import Player
from tests.serving import served

from .ui import button

pytestmark = pytest.mark.browser


def test_a_player_confirms_an_address_and_the_lobby_says_your_turn(
        browser: object, tmp_path: Path) -> None:
    smtp = SmtpServer()
    smtp.start()
    settings = {k: str(v) for k, v in smtp.settings().items()}
    try:
        with served(tmp_path / "mail.db", TEST_FIXED_SEED="7", BOT_WORKERS="0",
                    **settings) as url:
            contexts = [browser.new_context(base_url=url) for _ in range(2)]  # type: ignore[attr-defined]
            host, bo = (ctx.new_page() for ctx in contexts)
            errors: list[str] = []
            for page in (host, bo):
                page.on("pageerror", lambda exc: errors.append(str(exc)))
            # The host opens a turn-based table: the long clocks are offered.
            host.goto("/")
            host.get_by_text("More options").click()
            host.get_by_label("Turn-based — a move whenever you have a minute, over days").check()
            clock = host.locator("#clock-choice")
            expect(clock).to_have_value("86400+259200")
            assert "12 h" in clock.inner_text() and "Custom…" in clock.inner_text()
            button(host, "Create table").click()
            host.wait_for_url(re.compile(r"/r/"))
            code = host.url.rsplit("/", 1)[1]
            host.get_by_label("Your name").fill("Ana")
            button(host, "Sit in seat 1").click()
            expect(host.get_by_text("(you, host)")).to_be_visible()
            # Bo sits down in his own browser and asks for e-mail.
            bo.goto(f"/r/{code}")
            bo.get_by_label("Your name").fill("Bo")
            button(bo, "Sit in seat 2").click()
            bo.get_by_text("E-mail me when it is my turn").click()
            bo.get_by_label("E-mail address").fill("not an address")
            button(bo, "Send me a code").click()
            expect(bo.get_by_text("That is not an e-mail address.")).to_be_visible()
            bo.get_by_label("E-mail address").fill("bo@example.org")
            button(bo, "Send me a code").click()
            expect(bo.get_by_text("A code was sent to b***@example.org.")).to_be_visible()
            sent = code_in(smtp.wait_for(1, kind="code")[0])
            bo.get_by_label("6-digit code").fill(sent)
            button(bo, "Confirm").click()
            expect(bo.get_by_text("E-mails go to b***@example.org when it is your turn.")
                   ).to_be_visible()
            button(host, "Start the game").click()
            # Bo leaves the table; Ana plays until it is his turn.
            bo.goto("/")
            ana_token = host.evaluate(f"localStorage.getItem('cr.seat.{code.replace('-', '')}')")
            ana = Player(url.replace("http", "ws", 1) + f"/ws/{code}", ana_token)
            while ana.game()["current"] != 1:
                ana.act(ana.game()["legal"][-1])
            ana.close()
            mail = smtp.wait_for(1, kind="turn")
            assert len(mail) == 1 and mail[0]["To"] == "bo@example.org"
            bo.reload()
            expect(bo.get_by_role("heading", name="My tables")).to_be_visible()
            expect(bo.locator("#my-tables li.your-turn")).to_contain_text("Your turn")
            expect(bo).to_have_title(re.compile(r"^\(1\) "))
            turns = httpx.post(f"{url}/api/turns", json={"seats": [
                {"code": code, "token": ana_token}]}).json()["seats"][0]
            assert not turns["your_turn"] and "bo@example.org" not in str(turns)
            # The message's unsubscribe link, opened in the browser: a page that asks, whose
            # button unsubscribes; a link altered to another address's row is refused.
            link = link_in(mail[0], "http://play.example/unsubscribe/")
            row, mac = link.rsplit("/", 1)[1].split(".")
            bo.goto(f"/unsubscribe/{int(row) + 1}.{mac}")
            expect(bo.get_by_role("heading", name="This link does not work")).to_be_visible()
            bo.goto(link.replace("http://play.example", url))
            expect(bo.get_by_role("heading", name="Stop the e-mails?")).to_be_visible()
            button(bo, "Unsubscribe").click()
            expect(bo.get_by_role("heading", name="No more e-mail")).to_be_visible()
            for ctx in contexts:
                ctx.close()
            assert not errors, errors
    finally:
        smtp.stop()

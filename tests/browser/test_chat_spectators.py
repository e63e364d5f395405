"""Spectators at a table in the browser: a name or a message that shows nothing is refused
in words; a spectator who reloads the page is still the same "Spectator n" (the page keeps
its token), so another spectator's mute still holds."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .ui import button

pytestmark = pytest.mark.browser


def open_chat(page: Page) -> None:
    if page.locator("#talk").is_hidden():
        page.locator("#talk-toggle").click()
    expect(page.locator("#talk")).to_be_visible()


def say(page: Page, text: str) -> None:
    page.get_by_label("Message").fill(text)
    page.get_by_role("button", name="Send").click()


def test_invisible_text_is_refused_and_a_spectator_stays_itself(new_page) -> None:
    host = new_page()
    host.goto("/")
    host.get_by_role("button", name="Create table").click()
    host.wait_for_url(re.compile(r"/r/"))
    url = host.url

    loud, quiet = new_page(), new_page()
    loud.goto(url)
    quiet.goto(url)
    loud.get_by_label("Your name").fill("\u3164\u3164")  # Hangul fillers: nothing shows
    button(loud, "Sit in seat 1").click()
    expect(loud.locator("#waiting .form-error")).to_have_text(
        "That name shows nothing readable. Please use letters, numbers or emoji.")

    open_chat(loud)
    say(loud, "\u2800\u2800")  # blank Braille patterns
    expect(loud.locator(".talk-error")).to_have_text("That message shows nothing readable.")
    say(loud, "hello from the stands")
    mine = loud.locator("#talk-list .talk-msg").last
    expect(mine).to_contain_text("hello from the stands")
    expect(mine.locator(".talk-who")).to_have_text(re.compile(r"^Spectator \d+ \(you\)$"))
    who = mine.locator(".talk-who").inner_text().removesuffix(" (you)")

    open_chat(quiet)
    expect(quiet.locator("#talk-list")).to_contain_text("hello from the stands")
    quiet.get_by_role("button", name=f"Mute {who}").click()

    loud.reload()  # a new socket: the same spectator
    open_chat(loud)
    say(loud, "after the reload")
    mine = loud.locator("#talk-list .talk-msg").last
    expect(mine).to_contain_text("after the reload")
    expect(mine.locator(".talk-who")).to_have_text(f"{who} (you)")
    say(quiet, "can anyone hear me")
    expect(quiet.locator("#talk-list")).to_contain_text("can anyone hear me")
    expect(quiet.locator("#talk-list")).not_to_contain_text("after the reload")

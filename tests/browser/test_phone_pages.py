"""The pages around the table on a phone (360×740), in en, th and ko: the lobby, the rules,
the history and an error page keep their header on one row, with the brand still named and
the current page marked; nothing scrolls sideways; no Thai text may break inside a word
(issue 43: the lobby lists this browser's game under way, in Thai words)."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Page, expect

from .geometry import header_one_row, thai_breaks_between_words
from .players import join
from .ui import no_sideways_scroll, screenshot

pytestmark = pytest.mark.browser

PAGES = {"lobby": "/", "rules": "/rules", "games": "/games", "players": "/players",
         "error": "/r/ZZZZ-ZZZZ"}
LANG_BUTTON = {"en-US": "EN", "th-TH": "TH", "ko-KR": "KO"}


@pytest.mark.parametrize("locale", list(LANG_BUTTON))
@pytest.mark.parametrize("name", list(PAGES))
def test_phone_pages_keep_a_one_row_header(new_page, base_url: str, locale: str,  # noqa: ANN001
                                           name: str) -> None:
    page: Page = new_page(width=360, height=740, locale=locale)
    if name == "lobby" and locale == "th-TH":  # a game of this browser's, under way
        made = httpx.post(f"{base_url}/api/rooms", json={"players": 2}).json()
        token = [join(base_url, made["code"], who)[1] for who in ("Ana", "Bo")][0]
        httpx.post(f"{base_url}/api/rooms/{made['code']}/start",
                   json={"token": made["host_token"]}).raise_for_status()
        room = made["code"].replace("-", "")
        page.add_init_script(f"localStorage.setItem('cr.seat.{room}', '{token}')")
    page.goto(PAGES[name])
    expect(page.locator(".lang-btn[aria-pressed=true]")).to_have_text(LANG_BUTTON[locale])
    header_one_row(page)
    no_sideways_scroll(page)
    expect(page.get_by_role("link", name="Coffee Rush")).to_have_count(1)  # hidden text, named
    if name in ("rules", "games", "players"):  # in the menu, the page it is on is marked
        page.locator("#nav-menu summary").click()
        expect(page.locator("#nav-menu [aria-current=page]")).to_be_visible()
        expect(page.locator("#nav-menu a")).to_have_count(3)
        page.keyboard.press("Escape")
        expect(page.locator("#nav-menu a").first).to_be_hidden()
    if locale == "ko-KR":  # Korean lines break between words, not inside one ("있/습니다")
        assert page.evaluate("getComputedStyle(document.body).wordBreak") == "keep-all"
    if locale == "th-TH":
        if name == "lobby":
            expect(page.locator(".room-meta").first).to_be_visible()
        thai_breaks_between_words(page)
    screenshot(page, f"phone-{name}-360-{locale[:2]}", full_page=False)

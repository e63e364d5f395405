"""The pages around the table on a phone (360×740), in en, th and ko: the lobby, the rules,
the history and an error page keep their header on one row, with the brand still named and
the current page marked; nothing scrolls sideways."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .geometry import header_one_row
from .ui import no_sideways_scroll, screenshot

pytestmark = pytest.mark.browser

PAGES = {"lobby": "/", "rules": "/rules", "games": "/games", "players": "/players",
         "error": "/r/ZZZZ-ZZZZ"}
LANG_BUTTON = {"en-US": "EN", "th-TH": "TH", "ko-KR": "KO"}


@pytest.mark.parametrize("locale", list(LANG_BUTTON))
@pytest.mark.parametrize("name", list(PAGES))
def test_phone_pages_keep_a_one_row_header(new_page, locale: str, name: str) -> None:  # noqa: ANN001
    page: Page = new_page(width=360, height=740, locale=locale)
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
    screenshot(page, f"phone-{name}-360-{locale[:2]}", full_page=False)

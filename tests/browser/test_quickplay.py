"""Play now and the open seeks in Chromium: two, three and four players (each in a browser
context of their own) press Play now, or join a listed seek in one click, and land at one
table; the list updates live while they wait; the panel in en/th/ko at 1440 and 360."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .ui import no_sideways_scroll, screenshot

pytestmark = pytest.mark.browser

TABLE = re.compile(r"/r/[A-Z0-9]{4}-[A-Z0-9]{4}$")


def _lobby(new_page, name: str, width: int = 1280, locale: str = "en-US"):  # noqa: ANN001, ANN202
    page = new_page(width=width, locale=locale)
    page.goto("/")
    page.get_by_label("Play as").fill(name) if locale == "en-US" else page.locator(
        "#player-name").fill(name)
    return page


def _land_at_one_table(pages) -> str:  # noqa: ANN001
    for page in pages:
        expect(page).to_have_url(TABLE, timeout=15_000)
    codes = {page.url.rsplit("/", 1)[1] for page in pages}
    assert len(codes) == 1, codes
    code = codes.pop()
    for page in pages:  # each holds its own seat's token
        token = page.evaluate(f"localStorage.getItem('cr.seat.{code.replace('-', '')}')")
        assert token
    return code


def test_two_three_and_four_players_press_play_now_and_land_at_one_table(new_page) -> None:  # noqa: ANN001
    # Two: the first presses Play now; the second sees the seek appear (live, no reload),
    # with its size, pace, clock and kind, and joins it in one click.
    first = _lobby(new_page, "Ann")
    second = _lobby(new_page, "Ben")
    first.get_by_role("button", name="Play now").click()
    expect(first.get_by_role("status")).to_contain_text("Looking for players")
    seek = second.locator("#qp-list li.seek")
    expect(seek).to_have_count(1)
    expect(seek).to_contain_text("2 players · Real time · 1 min per turn + 5 min bank · casual")
    seek.get_by_role("button", name="Join").click()
    _land_at_one_table([first, second])

    # Three and four: everyone presses Play now for that size; nobody is seated early.
    for size in (3, 4):
        pages = [_lobby(new_page, f"P{size}{i}") for i in range(size)]
        for i, page in enumerate(pages):
            page.locator("#qp-size").select_option(str(size))
            page.get_by_role("button", name="Play now").click()
            if i < size - 1:
                expect(page.get_by_role("status")).to_contain_text("Looking for players")
                expect(pages[0].locator("#qp-list li.seek")).to_have_count(i + 1)
        code = _land_at_one_table(pages)
        expect(pages[0].locator(".seat, [data-seat]").first).to_be_visible()
        assert code


def test_play_now_panel_in_three_languages_phone_and_desktop(new_page) -> None:  # noqa: ANN001
    waiting = _lobby(new_page, "Wu")
    waiting.locator("#qp-size").select_option("4")
    waiting.get_by_role("button", name="Play now").click()
    expect(waiting.get_by_role("button", name="Stop waiting")).to_be_visible()
    for locale, play in (("en-US", "Play now"), ("th-TH", "เล่นเลย"), ("ko-KR", "바로 플레이")):
        for width in (360, 1440):
            page = new_page(width=width, height=740 if width == 360 else 900, locale=locale)
            page.goto("/")
            button = page.get_by_role("button", name=play)
            expect(button).to_be_visible()
            expect(page.locator("#qp-list li.seek")).to_have_count(1)
            no_sideways_scroll(page)
            box = button.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
            screenshot(page, f"quickplay-{width}-{locale[:2]}")
    waiting.get_by_role("button", name="Stop waiting").click()
    expect(waiting.get_by_role("button", name="Play now")).to_be_enabled()

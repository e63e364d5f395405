"""One screen: on a 1440×900 or 1366×768 desktop, during your own turn in every phase, the
prompt, the whole board, your cups, hand and orders are visible without scrolling, with 2, 3
and 4 players; the replay viewer too. On a phone the header is one row."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import Page, expect

from .geometry import (
    DESKTOPS,
    MY_TURN_PARTS,
    board_column_fills_height,
    board_fills_height,
    header_one_row,
    outside_window,
    thai_breaks_between_words,
    thai_face_loaded,
    tiles_headed,
    words_fit,
)
from .test_full_games import CANDIDATES, MY_TURN_OR_OVER, finish, seat_in_new_game
from .ui import screenshot, settled, wait_for

pytestmark = pytest.mark.browser
# Upgrading needs three completed orders, which random play rarely reaches; it shares the
# layout of every other phase (tiles in your own board), so the test does not wait for it.
# Choosing a starting cup happens in 2-player games only (R-SETUP 4).
PHASES = {"placement", "move", "pour", "process"}


def phase(page: Page) -> str:
    return page.evaluate("""() => [...document.getElementById('table-root').classList]
      .find(c => c.startsWith('phase-')).slice(6)""")


def check_phase(page: Page, players: int, name: str, lang: str) -> None:
    # The README's picture is one of these: the last moves' outlines (reduced motion) gone.
    wait_for(page, "() => !document.querySelector('.motion-hl')")
    for width, height in DESKTOPS:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(50)  # a layout frame for the new size
        bad = outside_window(page, MY_TURN_PARTS)
        assert not bad, f"{players} players, {name} at {width}×{height}: {bad}"
        board_fills_height(page)
        board_column_fills_height(page)
        words_fit(page)
        tiles_headed(page)
        screenshot(page, f"turn-{players}p-{name}-{width}-{lang}", full_page=False)


@pytest.mark.parametrize(("players", "locale"), [(2, "en-US"), (3, "th-TH"), (4, "ko-KR")])
def test_your_turn_fits_one_screen_in_every_phase(new_page, base_url: str, players: int,
                                                  locale: str) -> None:  # noqa: ANN001
    page = new_page(width=1366, height=768, locale=locale)
    bots = seat_in_new_game(page, base_url, players, "Mochaccino Maximilian")
    rng = random.Random(players)
    seen: set[str] = set()
    wanted = PHASES | ({"starting_cup"} if players == 2 else set())
    for _ in range(400):
        wait_for(page, MY_TURN_OR_OVER, timeout=60_000)
        if page.locator("#final").is_visible():
            break
        now = phase(page)
        if now not in seen:
            seen.add(now)
            check_phase(page, players, now, locale[:2])
        if wanted <= seen:
            break
        count = page.evaluate(CANDIDATES)
        page.locator(f'[data-cand="{rng.randrange(count)}"]').click()
        settled(page)
    assert wanted <= seen, f"phases never reached on your turn: {wanted - seen}"
    if players == 4:
        chat_keeps_the_table_in_view(page)
    for b in bots:
        b.done.set()
    finish(bots)


def chat_keeps_the_table_in_view(page: Page) -> None:
    """Issue 43: at 1366×768 with 4 players, opening the chat and typing in it scrolls
    nothing: the prompt, the board and the chat's input stay in the window."""
    page.set_viewport_size({"width": 1366, "height": 768})
    page.evaluate("window.scrollTo(0, 0)")
    page.locator("#talk-toggle").click()
    expect(page.locator("#talk-input")).to_be_focused()
    page.keyboard.type("good luck")
    page.wait_for_timeout(100)
    assert page.evaluate("scrollY") == 0, "opening the chat scrolled the page"
    bad = outside_window(page, {"#prompt": "prompt", "#board": "board", "#talk form": "chat input"})
    assert not bad, f"with the chat open: {bad}"
    screenshot(page, "chat-open-1366-4p", full_page=False)
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.locator("#talk-toggle").click()


@pytest.mark.parametrize("locale", ["en-US", "th-TH", "ko-KR"])
def test_phone_header_is_one_row(new_page, base_url: str, locale: str) -> None:  # noqa: ANN001
    page = new_page(width=360, height=740, locale=locale)
    bots = seat_in_new_game(page, base_url, 3, "Chayanee Srisuwan")
    page.wait_for_selector("#game:not([hidden])")
    header_one_row(page)
    words_fit(page)
    if locale.startswith("th"):
        thai_face_loaded(page)
        thai_breaks_between_words(page)
    screenshot(page, f"phone-table-360-{locale[:2]}", full_page=False)
    # Its menu keeps "How to play" and "Finished games" (issue 26), on screen.
    menu = page.locator("#nav-menu summary")
    expect(menu).to_be_visible()
    assert menu.get_attribute("aria-label")
    menu.click()
    rules = page.locator("#nav-menu a[href='/rules']")
    games = page.locator("#nav-menu a[href='/games']")
    for link in (rules, games):
        expect(link).to_be_visible()
        box = link.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360, f"link off screen: {box}"
    screenshot(page, f"phone-menu-360-{locale[:2]}", full_page=False)
    rules.click()
    page.wait_for_url(re.compile(r"/rules$"))
    for b in bots:
        b.done.set()
    finish(bots)

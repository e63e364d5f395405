"""The desktop table uses the window (issue 43): the board grows with it (1440×900: 728 px,
was 650, then 670; 1366×768: 622 px, was 576; 1920×1080: 959 px, was 728 under a page
capped at 1440 px, ~215 px empty below) while the supply sits under it, no more than
a strip stays empty below the table and the page never scrolls; with two or three
players the side column draws the opponents' orders as real cards (name band, recipe in the
cup, point) with 20 px icons, as your own are drawn. Bounding boxes, in en/th/ko."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from .test_full_games import finish, seat_in_new_game
from .ui import screenshot

pytestmark = pytest.mark.browser

FIT = """() => { scrollTo(0, 0);
  const box = (e) => e.getBoundingClientRect();
  const side = box(document.getElementById('side'));
  const cards = [...document.querySelectorAll('#players .pboard.compact .card')];
  return {h: innerHeight, page: document.scrollingElement.scrollHeight,
          board: box(document.getElementById('board')).width,
          col: box(document.getElementById('board-col')).bottom,
          bottom: Math.max(...['board-col', 'me-area', 'side']
            .map((id) => box(document.getElementById(id)).bottom)),
          cards: cards.length,
          drawn: cards.filter((c) => c.querySelector('.card-name').checkVisibility()
            && c.querySelector('.card-cup-art').checkVisibility()
            && c.querySelector('.card-pts').checkVisibility()).length,
          ico: Math.min(...cards.flatMap((c) => [...c.querySelectorAll('.recipe .ico')])
            .map((i) => box(i).width)),
          outside: cards.filter((c) => { const r = box(c);
            return r.left < side.left - 0.5 || r.right > side.right + 0.5; }).length,
          names: cards.filter((c) => { const n = c.querySelector('.card-name');
            return n.scrollWidth > n.clientWidth + 1; }).map((c) => c.textContent)}; }"""
# The board's side at each size: before issue 43, and now at least.
BOARD = {(1440, 900): (650, 720), (1366, 768): (576, 610), (1920, 1080): (728, 880)}
# What may stay empty below the table's lowest column (the page's bottom margin and a
# rounding): before, 91 px at 1440×900.
EMPTY = 40


def check(page: Page, width: int, height: int, players: int, lang: str) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_timeout(100)
    got = page.evaluate(FIT)
    before, now = BOARD[(width, height)]
    print(f"board {players}p {lang} {width}x{height}: before {before} now {got['board']:.0f}; "
          f"empty below {got['h'] - got['bottom']:.0f}; opponents' icons {got['ico']:.0f}")
    assert got["board"] >= now, got
    assert got["page"] <= got["h"], f"the page scrolls: {got}"
    assert got["col"] <= got["h"] + 0.5, got
    assert got["h"] - got["bottom"] <= EMPTY, f"{got['h'] - got['bottom']:.0f}px empty: {got}"
    assert got["cards"] >= 2 * (players - 1), got
    screenshot(page, f"desktop-fit-{players}p-{width}-{lang}", full_page=False)
    if players == 4:  # chips, and a zoom (test_cards.py)
        return
    assert got["drawn"] == got["cards"], f"opponents' orders drawn as chips: {got}"
    assert got["ico"] >= 20, got
    assert got["outside"] == 0 and got["names"] == [], got


@pytest.mark.parametrize(("players", "locale"), [(2, "en-US"), (3, "th-TH"), (3, "ko-KR"),
                                                 (4, "en-US"), (4, "th-TH")])
def test_the_board_and_the_opponents_cards_use_the_window(new_page, base_url: str,  # noqa: ANN001
                                                          players: int, locale: str) -> None:
    page = new_page(width=1440, height=900, locale=locale)
    bots = seat_in_new_game(page, base_url, players, "Mina", delay=2)
    page.wait_for_selector("#game:not([hidden])")
    page.wait_for_selector("#players .pboard.compact .card")
    for width, height in BOARD:
        check(page, width, height, players, locale[:2])
    for b in bots:
        b.done.set()
    finish(bots)

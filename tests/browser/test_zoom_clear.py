"""The zoom covers none of your own things (issue 43): at 1366×768 and 1440×900 with four
players, in en, th and ko, hovering an opponent's order or cup, an upgrade tile or a supply
pile shows it full size beside it (zoom.js), and that zoom never lies over your own name and
points line, your counts (completed, penalties, Rush), or anything you can use at that moment
(the walk's next cells, your cups while a token is picked, the bar's buttons), nor over the
chip it shows. Before, it sat centred above its chip: an opponent's cup at the top of the
side column was zoomed over your points ("0 points"), your own tiles' zoom over your cups and
counts. Tap and keyboard place it the same way (test_cards.py). Bounding boxes, in your move
and pour."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Page

from .test_full_games import finish, seat_in_new_game
from .test_hint import MINE
from .test_one_screen import phase
from .ui import CANDIDATES, screenshot, settled, wait_for

pytestmark = pytest.mark.browser

# Every zoomable chip (zoom.js ZOOMABLE) in the window, marked with its index; their count.
MARK = """() => {
  const chips = [...document.querySelectorAll(
    '.pboard.compact .card, .pboard.compact .cup, .pboard .tile, #supply-list .sup')]
    .filter((e) => e.checkVisibility());
  chips.forEach((e, i) => { e.dataset.chip = String(i); });
  return chips.length; }"""
# What the shown zoom lies over of what it must leave clear, and whether it is inside the window.
UNDER_THE_ZOOM = """(i) => {
  const tip = document.getElementById('card-zoom');
  if (tip.hidden) return null;
  const t = tip.getBoundingClientRect();
  const meets = (r) => r.left < t.right - 1 && t.left < r.right - 1
    && r.top < t.bottom - 1 && t.top < r.bottom - 1;
  const chip = document.querySelector(`[data-chip="${i}"]`);
  const live = ':not(:disabled):not([aria-disabled=true])';
  const mine = [...document.querySelectorAll('.pboard.is-me .pb-head, .pboard.is-me .stats, '
    + `#board .cell.legal, .target, .pboard.is-me button${live}, #actionbar button${live}`)]
    .filter((e) => e !== chip && !e.contains(chip) && e.checkVisibility());
  const name = (e) => e.getAttribute('aria-label') || e.className;
  return {over: mine.filter((e) => meets(e.getBoundingClientRect())).map(name),
          chip: meets(chip.getBoundingClientRect()), for: tip.dataset.for,
          inside: t.left >= 0 && t.top >= 0 && t.right <= innerWidth
            && t.bottom <= innerHeight}; }"""


def zoom_every_chip(page: Page, where: str) -> int:
    """Hover each chip in turn and check its zoom; how many were checked."""
    count = page.evaluate(MARK)
    checked = 0
    for i in range(count):
        page.locator(f'[data-chip="{i}"]').hover()
        got = page.evaluate(UNDER_THE_ZOOM, i)
        if got is None:  # (a chip of your own board that acts now: no zoom, drawn full size)
            continue
        assert got["over"] == [] and not got["chip"] and got["inside"], (where, i, got)
        checked += 1
    page.mouse.move(2, 2)
    return checked


@pytest.mark.parametrize("locale", ["en-US", "th-TH", "ko-KR"])
def test_the_zoom_leaves_your_own_points_and_controls_clear(new_page, base_url: str,  # noqa: ANN001
                                                            locale: str) -> None:
    page = new_page(width=1366, height=768, locale=locale)
    lang = locale[:2]
    bots = seat_in_new_game(page, base_url, 4, "Mina", delay=0.2)
    page.wait_for_selector("#game:not([hidden])")
    rng = random.Random(4)
    for step in ("move", "pour"):
        for _ in range(300):
            wait_for(page, MINE, timeout=60_000)
            if phase(page) == step:
                break
            page.locator(f'[data-cand="{rng.randrange(page.evaluate(CANDIDATES))}"]').click()
            settled(page)
        else:
            raise AssertionError(f"never reached {step}")
        if step == "pour":  # a token picked: your cups take it
            page.locator("#hand .token:not(:disabled)").first.click()
            assert page.locator(".pboard.is-me .cup.target").count()
        for width, height in ((1366, 768), (1440, 900)):
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(150)
            checked = zoom_every_chip(page, f"{lang} {step} {width}x{height}")
            print(f"{lang} {step} {width}x{height}: {checked} zooms, none over your own things")
            assert checked >= 20, checked
            page.locator("#players .pboard.compact .cup").first.hover()
            screenshot(page, f"zoom-clear-{step}-{width}-{lang}", full_page=False)
            page.mouse.move(2, 2)
    for b in bots:
        b.done.set()
    finish(bots)

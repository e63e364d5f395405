"""Two polish points of issue 11, in Chromium: Help opens at its top (however far the page
or the help itself was scrolled before), and the keyboard focus ring on a board cell is
told apart from the legal-move highlight (a dark dashed outline, not the teal ring).
Issue 43: the help's Close and "Full rules" are in the window however long the help is."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .test_full_games import MY_TURN_OR_OVER, finish, seat_in_new_game
from .test_play import keyboard_until
from .ui import save_shot, screenshot, wait_for

pytestmark = pytest.mark.browser

HELP_STATE = """() => {
  const help = document.getElementById('help');
  const body = help.querySelector('.help-body');  // what scrolls
  const title = document.getElementById('help-title').getBoundingClientRect();
  const box = body.getBoundingClientRect();
  const inWindow = (e) => { const r = e.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth
      && document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === e; };
  return {open: help.open, top: body.scrollTop, room: body.scrollHeight - body.clientHeight,
          titleInside: title.top >= box.top - 0.5 && title.bottom <= box.bottom + 0.5,
          closeInWindow: inWindow(document.getElementById('help-close')),
          rulesInWindow: inWindow(help.querySelector('a[href="/rules"]')),
          focused: document.activeElement && document.activeElement.id};
}"""

RING = """(sel) => {
  const el = document.querySelector(sel);
  const s = getComputedStyle(el);
  return {outlineStyle: s.outlineStyle, outlineColor: s.outlineColor,
          outlineWidth: parseFloat(s.outlineWidth), boxShadow: s.boxShadow,
          accent: getComputedStyle(document.documentElement).getPropertyValue('--accent')};
}"""


def rgb(hex_colour: str) -> str:
    h = hex_colour.strip().lstrip("#")
    return "rgb({}, {}, {})".format(*(int(h[i:i + 2], 16) for i in (0, 2, 4)))


@pytest.mark.parametrize(("width", "height", "locale"), [
    (360, 740, "en-US"), (360, 740, "th-TH"), (360, 740, "ko-KR"), (1366, 768, "en-US"),
    (1440, 900, "ko-KR"),
])
def test_help_opens_at_its_top(new_page, base_url: str, width: int, height: int,
                               locale: str) -> None:  # noqa: ANN001
    page: Page = new_page(width=width, height=height, locale=locale)
    bots = seat_in_new_game(page, base_url, 2, "Helpful Reader")
    page.wait_for_selector("#game:not([hidden])")
    page.evaluate("window.scrollTo(0, document.scrollingElement.scrollHeight)")
    page.locator("#help-btn").click()
    state = page.evaluate(HELP_STATE)
    assert state["open"] and state["top"] == 0 and state["titleInside"], state
    assert state["focused"] == "help-title", state  # not the last control, down below
    assert state["closeInWindow"] and state["rulesInWindow"], state
    if state["room"] > 0:  # the help scrolls here: scroll it down, close, open again
        page.evaluate("document.querySelector('#help .help-body').scrollTop = 1e6")
        assert page.evaluate(HELP_STATE)["top"] > 0
    page.locator("#help-close").click()
    expect(page.locator("#help")).not_to_be_visible()
    page.locator("#help-btn").click()
    state = page.evaluate(HELP_STATE)
    assert state["open"] and state["top"] == 0 and state["titleInside"], state
    screenshot(page, f"help-{width}-{locale[:2]}", full_page=False)
    if width == 360:
        assert state["room"] > 0, "at 360×740 the help is taller than the window"
    page.keyboard.press("Escape")
    for b in bots:
        b.done.set()
    finish(bots)


@pytest.mark.parametrize("locale", ["en-US", "th-TH", "ko-KR"])
def test_keyboard_focus_ring_differs_from_the_legal_highlight(
    new_page, base_url: str, locale: str,
) -> None:  # noqa: ANN001
    page: Page = new_page(width=1440, height=900, locale=locale)
    bots = seat_in_new_game(page, base_url, 2, "Keyboard Kim")
    wait_for(page, MY_TURN_OR_OVER, timeout=60_000)
    assert page.locator("#board .cell.legal").count() >= 2, "my turn: cells to choose"
    page.mouse.move(1, 1)  # no hover on the board
    keyboard_until(page, "el.matches('.cell.legal')")
    focused_cell = page.evaluate("document.activeElement.dataset.cell")
    other = page.evaluate(
        "(c) => [...document.querySelectorAll('#board .cell.legal')]"
        ".find(e => e.dataset.cell !== c).dataset.cell", focused_cell)
    focused = page.evaluate(RING, f'#board .cell[data-cell="{focused_cell}"]')
    highlighted = page.evaluate(RING, f'#board .cell[data-cell="{other}"]')
    accent = rgb(focused["accent"])
    # The legal highlight: a teal ring (box-shadow), no outline.
    assert accent in highlighted["boxShadow"], highlighted
    assert highlighted["outlineStyle"] == "none" or highlighted["outlineWidth"] == 0
    # Focus adds a dark dashed outline around it, in another colour than the teal.
    assert focused["outlineStyle"] == "dashed" and focused["outlineWidth"] >= 2, focused
    assert focused["outlineColor"] != accent, focused
    assert accent in focused["boxShadow"]  # still shown as legal while focused
    save_shot(page.locator("#board"), f"focus-ring-{locale[:2]}")
    for b in bots:
        b.done.set()
    finish(bots)

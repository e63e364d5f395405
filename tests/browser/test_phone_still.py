"""A phone layout that holds still (issue 26), at 360×740: the board and your own area keep
their boxes in every phase and on every player's turn, the app never moves the page's scroll
position, the Chat button never covers an interactive element, and the header keeps its
links to "How to play" and "Finished games" (in a menu)."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Page

from .test_full_games import CANDIDATES, MY_TURN_OR_OVER, finish, seat_in_new_game
from .test_one_screen import phase
from .ui import ARTIFACTS, settled, wait_for

pytestmark = pytest.mark.browser

SCROLL = 250  # where the player left the page: the board half under the prompt bar
TOLERANCE = 3

# Record, after every new version is drawn, where the board and your area are (page
# coordinates), the scroll position, and what the Chat button covers.
RECORDER = """() => {
  window.__still = [];
  const clickable = 'button, a[href], input, select, summary, [tabindex]:not([tabindex="-1"])';
  const box = (e) => { const r = e.getBoundingClientRect();
    return [r.left, r.top + scrollY, r.width, r.height]; };
  const meets = (a, b) => a.left < b.right - 0.5 && a.right > b.left + 0.5
    && a.top < b.bottom - 0.5 && a.bottom > b.top + 0.5;
  const record = () => {
    const root = document.getElementById('table-root');
    const chat = document.getElementById('talk-toggle');
    const bar = document.getElementById('actionbar').getBoundingClientRect();
    const c = chat.getBoundingClientRect();
    // Whatever the sticky prompt bar hides is hidden by the bar, not by the button in it.
    const covered = [...document.querySelectorAll(clickable)]
      .filter(e => e !== chat && e.getClientRects().length && !e.closest('#talk'))
      .filter(e => { const r = e.getBoundingClientRect();
        return meets(r, c) && (e.closest('#actionbar') || !meets(r, bar)); })
      .map(e => (e.getAttribute('aria-label') || e.textContent).trim().slice(0, 50));
    window.__still.push({
      v: document.body.dataset.v, scrollY,
      phase: [...root.classList].find(k => k.startsWith('phase-')),
      mine: root.classList.contains('my-turn'),
      board: box(document.getElementById('board')), me: box(document.getElementById('me-area')),
      chatInBar: c.left >= bar.left - 0.5 && c.right <= bar.right + 0.5
        && c.top >= bar.top - 0.5 && c.bottom <= bar.bottom + 0.5,
      covered,
    });
  };
  new MutationObserver(record)  // at once: bots answer within a frame
    .observe(document.body, {attributes: true, attributeFilter: ['data-v']});
  record();
}"""


BAR_OVERFLOW = """(a => a.scrollHeight - a.clientHeight)(document.getElementById('actionbar'))"""


def near(a: list[float], b: list[float]) -> bool:
    return all(abs(x - y) <= TOLERANCE for x, y in zip(a, b, strict=True))


def shot(page: Page, name: str) -> None:
    """A screenshot where the player is (no scrolling, unlike ui.screenshot)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


@pytest.mark.parametrize(("players", "locale"), [(2, "en-US"), (3, "th-TH"), (4, "ko-KR")])
def test_phone_layout_holds_still(new_page, base_url: str, players: int, locale: str) -> None:  # noqa: ANN001
    page = new_page(width=360, height=740, locale=locale)
    lang = locale[:2]
    # The other seats pause before each action, so that their turns are drawn too.
    bots = seat_in_new_game(page, base_url, players, "Mochaccino Maximilian", delay=0.12)
    page.wait_for_selector("#game:not([hidden])")
    settled(page)
    page.evaluate(f"window.scrollTo(0, {SCROLL})")
    assert page.evaluate("scrollY") == SCROLL, "the page is too short to scroll"
    page.evaluate(RECORDER)
    rng = random.Random(players * 3)
    seen: set[str] = set()
    wanted = {"placement", "move", "pour", "process"}
    if players == 2:
        wanted.add("starting_cup")  # R-SETUP 4
    turns, last = 0, ""
    for _ in range(400):
        wait_for(page, MY_TURN_OR_OVER, timeout=60_000)
        assert not page.locator("#final").is_visible(), "the game ended first"
        now = phase(page)
        if now not in seen:
            seen.add(now)
            shot(page, f"phone-still-{now}-360-{lang}")
        if now == "move" and last != "move":
            turns += 1  # a new turn of mine (its first step)
        last = now
        if wanted <= seen and turns >= 3:
            break
        count = page.evaluate(CANDIDATES)
        # A click as a finger makes it: no scrolling the control into view first.
        page.evaluate(f"document.querySelector('[data-cand=\"{rng.randrange(count)}\"]').click()")
        settled(page)
        # The bar keeps one height: what it holds must fit, no button hidden in its scroll.
        over = page.evaluate(BAR_OVERFLOW)
        assert over <= 1, f"{phase(page)}: the prompt bar's content overflows by {over}px"
    assert wanted <= seen, f"phases never reached on your turn: {wanted - seen}"
    records = page.evaluate("window.__still")
    phases = {r["phase"] for r in records}
    assert len(records) > 10 and {r["mine"] for r in records} == {True, False}, phases
    first = records[0]
    for r in records:
        where = f"v{r['v']} {r['phase']} ({'mine' if r['mine'] else 'theirs'})"
        assert r["scrollY"] == SCROLL, f"{where}: the page scrolled to {r['scrollY']}"
        assert near(r["board"], first["board"]), f"{where}: board {r['board']} != {first['board']}"
        assert near(r["me"][:3], first["me"][:3]), f"{where}: your area {r['me']} != {first['me']}"
        assert r["chatInBar"], f"{where}: the Chat button floats outside the prompt bar"
        assert not r["covered"], f"{where}: the Chat button covers {r['covered']}"
    for b in bots:
        b.done.set()
    finish(bots)

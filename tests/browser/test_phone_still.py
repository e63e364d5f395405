"""A phone layout that holds still (issue 26), at 360×740: the board and your own area keep
their boxes in every phase and on every player's turn, the app never moves the page's scroll
position, the Chat button never covers an interactive element, and the header keeps its
links to "How to play" and "Finished games" (in a menu).

A whole turn on one screen (issue 43): from the top of the page, every tap of several whole
turns (move, pour, serve, end) lands on its control inside the window, as a finger would,
with the page never scrolled; the action bar is as tall as what it says, in every phase and
on the other players' turns, and none of its buttons is cut."""

from __future__ import annotations

import random

import pytest

from .geometry import tiles_headed
from .test_full_games import CANDIDATES, MY_TURN_OR_OVER, finish, seat_in_new_game
from .test_one_screen import phase
from .ui import save_shot, settled, wait_for

pytestmark = pytest.mark.browser

SCROLL = 0  # where the player is: the top of the page, where a whole turn fits
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
      // The bar's blank below its last row, and the buttons it cuts (as tall as its content).
      barBlank: (() => { const a = document.getElementById('actionbar');
        const rows = [...a.children].filter(e => e.checkVisibility());
        const pad = parseFloat(getComputedStyle(a).paddingBottom);
        const last = Math.max(...rows.map(e => e.getBoundingClientRect().bottom));
        return Math.round(bar.bottom - last - pad); })(),
      cut: [...document.querySelectorAll('#actionbar button')].filter(e => e.checkVisibility())
        .filter(e => { const r = e.getBoundingClientRect();
          return r.top < bar.top - 0.5 || r.bottom > bar.bottom + 0.5; })
        .map(e => e.textContent.trim()),
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

# Where a finger taps the control: its middle, if it is inside the window and nothing
# (the bar, a note) lies over it there; else why not.
TAP_POINT = """(sel) => {
  const e = document.querySelector(sel); const r = e.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  const name = (e.getAttribute('aria-label') || e.textContent).trim().slice(0, 40);
  if (r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth)
    return {miss: `${name} at ${[r.left, r.top, r.right, r.bottom].map(Math.round)}, off screen`};
  const hit = document.elementFromPoint(x, y);
  if (!hit || !(hit === e || e.contains(hit)))
    return {miss: `${name}: its middle is covered by ${hit && (hit.id || hit.className)}`};
  return {x, y};
}"""


def near(a: list[float], b: list[float]) -> bool:
    return all(abs(x - y) <= TOLERANCE for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize(("players", "locale"), [(2, "en-US"), (3, "th-TH"), (4, "ko-KR")])
def test_phone_layout_holds_still(new_page, base_url: str, players: int, locale: str) -> None:  # noqa: ANN001
    page = new_page(width=360, height=740, locale=locale)
    lang = locale[:2]
    # The other seats pause before each action, so that their turns are drawn too.
    bots = seat_in_new_game(page, base_url, players, "Mochaccino Maximilian", delay=0.12)
    page.wait_for_selector("#game:not([hidden])")
    settled(page)
    page.evaluate(f"window.scrollTo(0, {SCROLL})")
    assert page.evaluate("scrollY") == SCROLL
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
            save_shot(page, f"phone-still-{now}-360-{lang}")
            tiles_headed(page)
        if now == "move" and last != "move":
            turns += 1  # a new turn of mine (its first step)
        last = now
        if wanted <= seen and turns >= 3:
            break
        count = page.evaluate(CANDIDATES)
        # A tap as a finger makes it, where the control is: no scrolling it into view first.
        point = page.evaluate(TAP_POINT, f'[data-cand="{rng.randrange(count)}"]')
        assert "miss" not in point, f"{now}: {point.get('miss')}"
        page.mouse.click(point["x"], point["y"])
        settled(page)
        assert page.evaluate("scrollY") == SCROLL, f"{now}: the page scrolled"
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
        assert r["barBlank"] <= 2, f"{where}: the bar is {r['barBlank']}px taller than it says"
        assert not r["cut"], f"{where}: the action bar cuts {r['cut']}"
    for b in bots:
        b.done.set()
    finish(bots)

"""Driving the table page the way a person does: role/name locators, one click per intent."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Locator, Page, expect

from server.rules import Game, card_public

# What a page's own fetch() says of a POST it sends (Chromium adds it; Playwright's API
# requests, which share the page's cookies, send nothing): the server refuses a request
# with the session cookie that says neither Origin nor Sec-Fetch-Site (issue 41.13).
SAME_SITE = {"sec-fetch-site": "same-origin"}

# Mark every control the seat may use now; return how many. Undo is left out (it only
# loops), and so are the hint button and the Chat button (they never change the game).
CANDIDATES = """() => {
  document.querySelectorAll('[data-cand]').forEach(e => e.removeAttribute('data-cand'));
  const els = [
    ...document.querySelectorAll('#board .cell.legal'),
    ...document.querySelectorAll(
      '#actionbar button:not(:disabled):not(.undo):not(.hint-btn):not(.talk-toggle)'),
    ...document.querySelectorAll('.pboard.is-me button:not(:disabled):not([aria-disabled=true])'),
  ].filter(e => e.offsetParent !== null);
  els.forEach((e, i) => e.setAttribute('data-cand', String(i)));
  return els.length;
}"""

Action = dict[str, Any]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
# A screenshot is a record for people to look at, not an assertion: on a loaded machine a
# full-page one once took longer than an action's 10 s, so it may take longer.
SHOT_MS = 30_000


def wait_for(page: Page, predicate: str, timeout: float = 30_000) -> Any:
    """Poll a JS expression or function until it is truthy; its value. (Page.wait_for_function
    evaluates its predicate with eval, which the site's Content-Security-Policy forbids.)"""
    for _ in range(max(1, int(timeout / 100))):
        value = page.evaluate(predicate)
        if value:
            return value
        page.wait_for_timeout(100)
    raise AssertionError(f"never true: {predicate[:120]}")


def laid_out(page: Page) -> None:
    """Wait until the page has drawn two frames: what a change queued for the next frame (the
    bar's notes are placed in one, bar-notes.js) is done and laid out. A fixed pause is not
    enough under load, where a frame can come later than 50 ms."""
    page.evaluate("""async () => { await document.fonts.ready;
      await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))); }""")


def box(locator: Any, timeout: float = 10_000) -> dict[str, float]:
    """The locator's bounding box once it has one (a redraw can detach the element that
    was found between finding and measuring it; Playwright then answers None)."""
    for _ in range(max(1, int(timeout / 100))):
        found = locator.bounding_box()
        if found:
            return dict(found)
        locator.page.wait_for_timeout(100)
    raise AssertionError(f"no bounding box for {locator}")


def settled(page: Page) -> None:
    """Wait until the page shows a version (its first frame has come: before it the page
    has nothing in flight but shows nothing either), no action of it is in flight and its
    result is shown."""
    expect(page.locator("body")).to_have_attribute("data-v", re.compile(r"^\d+$"))
    expect(page.locator("body")).to_have_attribute("data-busy", "0")


def same_version(*pages: Page) -> None:
    """Wait until every page shows the version of the first."""
    settled(pages[0])
    v = pages[0].locator("body").get_attribute("data-v")
    for p in pages[1:]:
        expect(p.locator("body")).to_have_attribute("data-v", v or "")


def cell(page: Page, name: str) -> Any:
    r, c = name[1], name[3]
    return page.get_by_role("button", name=re.compile(rf"^Row {r}, column {c}:"))


def button(page: Page, name: str, exact: bool = True) -> Any:
    return page.get_by_role("button", name=name, exact=exact)


def pick_token(page: Page, ingredient: str) -> None:
    token = page.get_by_role("button", name=re.compile(rf"^{ingredient} ×\d+ in hand"))
    if token.get_attribute("aria-pressed") != "true":
        token.click()
    expect(token).to_have_attribute("aria-pressed", "true")


def perform(page: Page, action: Action, game: Game) -> None:
    """Click through one engine action on `page` (English UI), then wait for the result."""
    kind = action["type"]
    if kind in ("place", "step"):
        cell(page, action["cell"]).click()
    elif kind == "choose_meeple":
        where = game.players[game.current].meeples[action["meeple"]]
        name = f"r{where // 4 + 1}c{where % 4 + 1}"
        target = cell(page, name)
        expect(target).to_have_attribute("aria-label", re.compile("move this meeple"))
        target.click()
    elif kind == "starting_cup":
        page.get_by_role("button", name=re.compile(
            rf"^Put your second starting token in cup {action['cup'] + 1}")).click()
    elif kind == "pour":
        pick_token(page, action["ingredient"])
        page.get_by_role("button", name=re.compile(
            rf"^Pour {action['ingredient']} into cup {action['cup'] + 1}")).click()
    elif kind == "return":
        pick_token(page, action["ingredient"])
        button(page, f"Return {action['ingredient']} to the supply").click()
    elif kind == "empty":
        button(page, f"Empty cup {action['cup'] + 1}").click()
    elif kind == "serve":
        cup = page.get_by_role("button", name=re.compile(rf"^Serve from cup {action['cup'] + 1}"))
        if cup.get_attribute("aria-pressed") != "true":
            cup.click()
        name = card_public(action["card"])["name"]
        button(page, f"Serve {name} from cup {action['cup'] + 1}").first.click()
    elif kind == "upgrade":
        page.get_by_role("button", name=re.compile(r"^Activate ")).first.click()
    else:
        labels = {"stop": "Stop here", "done_pouring": "Done pouring", "end_turn": "End turn",
                  "skip_upgrade": "Skip upgrade", "undo": "Undo"}
        button(page, labels[kind]).click()
    settled(page)


BOARD_SIGNATURE = """() => {
  const all = (root, sel) => [...root.querySelectorAll(sel)];
  const meeples = all(document, '.meeple')
    .map(m => [m.dataset.key, m.style.left, m.style.top]).sort();
  const seats = all(document, '.pboard').map(p => [p.dataset.seat,
    all(p, '.slot').map(s => s.dataset.ing || '-').join(','),
    all(p, '.tab').map(t => all(t, '.card').map(c => c.dataset.key).join('+')).join('|'),
    all(p, '.stat .n').map(n => n.textContent).join('/')]).sort();
  const supply = all(document, '#supply-list .n').map(n => n.textContent).join(',');
  const token = document.getElementById('token-state').textContent;
  return JSON.stringify({meeples, seats, supply, token});
}"""


def board_signature(page: Page) -> str:
    return page.evaluate(BOARD_SIGNATURE)


def save_shot(target: Page | Locator, name: str, **options: Any) -> None:
    """test-artifacts/<name>.png: `target` (a page, or one element) as it is now, no
    scrolling; `options` are Playwright's (full_page=True)."""
    ARTIFACTS.mkdir(exist_ok=True)
    target.screenshot(path=str(ARTIFACTS / f"{name}.png"), timeout=SHOT_MS, **options)


def screenshot(page: Page, name: str, full_page: bool = True) -> None:
    """The page from its top (the whole page, unless `full_page` is False)."""
    page.evaluate("window.scrollTo(0, 0)")
    save_shot(page, name, full_page=full_page)


def no_sideways_scroll(page: Page) -> None:
    width = page.viewport_size["width"] if page.viewport_size else 0
    scroll = page.evaluate("document.scrollingElement.scrollWidth")
    if scroll > width:
        wide = page.evaluate(f"""() => [...document.querySelectorAll('body *')]
          .filter(e => e.getBoundingClientRect().right > {width} + 1)
          .slice(0, 8).map(e => e.tagName + '.' + e.className + '#' + e.id)""")
        raise AssertionError(f"page scrolls sideways: {scroll} > {width}; widest: {wide}")

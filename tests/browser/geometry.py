"""Bounding-box checks: what a player needs on their turn is inside the window, unscrolled."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

DESKTOPS = ((1440, 900), (1366, 768))

# The parts of your own turn that must be visible without scrolling (selector -> name).
MY_TURN_PARTS = {
    "#prompt": "prompt",
    "#board": "board",
    ".pboard.is-me .cups": "your cups",
    ".pboard.is-me .tabs": "your orders",
    "#hand": "your hand",
    "#phase-buttons": "phase buttons",
}

RECTS = """(sels) => {
  window.scrollTo(0, 0);
  const out = {};
  for (const sel of sels) {
    const el = document.querySelector(sel);
    if (!el || el.offsetParent === null) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    out[sel] = [r.left, r.top, r.right, r.bottom];
  }
  const head = document.querySelector('.topbar').getBoundingClientRect();
  return {rects: out, w: innerWidth, h: innerHeight, header: head.bottom,
          scrollX: document.scrollingElement.scrollWidth};
}"""


def outside_window(page: Page, parts: dict[str, str]) -> list[str]:
    """The names of the parts not wholly inside the window at scroll 0 (empty: all fit)."""
    got: dict[str, Any] = page.evaluate(RECTS, list(parts))
    w, h = got["w"], got["h"]
    bad = []
    for sel, (left, top, right, bottom) in got["rects"].items():
        if left < -0.5 or top < -0.5 or right > w + 0.5 or bottom > h + 0.5:
            bad.append(f"{parts[sel]} at {[round(v) for v in (left, top, right, bottom)]}")
    if got["scrollX"] > w:
        bad.append(f"page scrolls sideways ({got['scrollX']} > {w})")
    return bad


def board_fills_height(page: Page) -> None:
    """The board starts right under the header and is big: no dead space above it."""
    got = page.evaluate(RECTS, ["#board"])
    left, top, right, bottom = got["rects"]["#board"]
    assert top - got["header"] < 24, f"board starts {top - got['header']:.0f}px below the header"
    assert bottom - top >= 0.6 * (got["h"] - got["header"]), "the board is small for the window"


def header_one_row(page: Page) -> None:
    """Every visible header item sits on one row, inside the window (and so do their parts)."""
    rows = page.evaluate("""() => [...document.querySelector('.topbar').children]
      .filter(e => e.offsetParent !== null && getComputedStyle(e).display !== 'none')
      .flatMap(e => [e, ...e.querySelectorAll('button, a, strong, span.chip')])
      .filter(e => e.checkVisibility())  // not the links of a closed menu
      .map(e => { const r = e.getBoundingClientRect();
        return [e.className || e.tagName, Math.round(r.top + r.height / 2), r.right]; })""")
    width = page.evaluate("innerWidth")
    middles = {middle for _, middle, _ in rows}
    assert max(middles) - min(middles) <= 6, f"header wraps: {rows}"
    assert all(right <= width + 0.5 for _, _, right in rows), f"header overflows: {rows}"


def words_fit(page: Page) -> None:
    """Names wrap between words only: no visible order or player name overflows its box
    (with word breaking off, a word wider than its box would overflow)."""
    wide = page.evaluate("""() => [...document.querySelectorAll('.card-name, .pname, .seat-name')]
      .filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)
      .map(e => e.textContent)""")
    assert not wide, f"names wider than their box: {wide}"
    styles = page.evaluate("""() => [...document.querySelectorAll('.card-name, .pname')]
      .map(e => getComputedStyle(e)).map(s => s.overflowWrap + '/' + s.wordBreak)""")
    assert set(styles) <= {"normal/normal"}, f"names may break inside a word: {set(styles)}"


THAI_FACE = """() => document.fonts.ready.then(() => [...document.fonts]
  .some(f => f.family.replaceAll('"', '') === 'Coffee Rush Thai' && f.status === 'loaded'))"""


def thai_face_loaded(page: Page) -> None:
    assert page.evaluate(THAI_FACE), "the bundled Thai face was not used"


def covered_by(page: Page, cover: str, parts: tuple[str, ...]) -> list[str]:
    """The visible `parts` (selectors; every match) whose box the element `cover` overlaps."""
    found: list[str] = page.evaluate("""([cover, parts]) => {
      const c = document.querySelector(cover).getBoundingClientRect();
      return parts.flatMap((sel) => [...document.querySelectorAll(sel)]
        .filter((e) => e.checkVisibility())
        .filter((e) => { const r = e.getBoundingClientRect();
          return r.left < c.right - 1 && c.left < r.right - 1
            && r.top < c.bottom - 1 && c.top < r.bottom - 1; })
        .map(() => sel));
    }""", [cover, list(parts)])
    return found

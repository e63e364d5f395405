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

# Measured once the fonts have loaded and a frame has been laid out since (a language switch
# swaps the script, and a fallback font's widths are not the page's).
RECTS = """async (sels) => {
  await document.fonts.ready;
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
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
  // What sticks out sideways, named by tag, id and class (to say why a page scrolls).
  const wide = [];
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.right > innerWidth + 0.5 && el.offsetParent !== null) {
      const cls = typeof el.className === 'string' && el.className
        ? '.' + el.className.split(' ').join('.') : '';
      const id = el.id ? '#' + el.id : '';
      wide.push(`${el.tagName.toLowerCase()}${id}${cls} right=${Math.round(r.right)}`);
    }
  }
  return {rects: out, w: innerWidth, h: innerHeight, header: head.bottom,
          scrollX: document.scrollingElement.scrollWidth, wide: wide.slice(0, 8)};
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
        bad.append(f"page scrolls sideways ({got['scrollX']} > {w}): {got['wide']}")
    return bad


def board_fills_height(page: Page) -> None:
    """The board starts right under the header and is big: no dead space above it."""
    got = page.evaluate(RECTS, ["#board"])
    left, top, right, bottom = got["rects"]["#board"]
    assert top - got["header"] < 24, f"board starts {top - got['header']:.0f}px below the header"
    assert bottom - top >= 0.6 * (got["h"] - got["header"]), "the board is small for the window"


def board_column_fills_height(page: Page) -> None:
    """Issue 43: the board's column uses the window's height: the supply sits under the
    board, and no more than a strip stays empty below them (a 1440×900 board left ~190 px)."""
    got = page.evaluate("""() => { window.scrollTo(0, 0);
      const col = document.getElementById('board-col');
      return {h: innerHeight, bottom: col.getBoundingClientRect().bottom,
              supply: Boolean(col.querySelector('#supply'))}; }""")
    assert got["supply"], "the supply is not under the board"
    assert got["bottom"] <= got["h"] + 0.5, f"the board's column ends below the window: {got}"
    empty = got["h"] - got["bottom"]
    assert empty <= 120, f"{empty:.0f}px empty below the board"


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
    # (keep-all: Korean breaks at its spaces only.)
    assert set(styles) <= {"normal/normal", "normal/keep-all"}, \
        f"names may break inside a word: {set(styles)}"


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


# Each occurrence of a known word inside the visible `sel` elements, and how many line boxes
# it spans (a word joiner, U+2060, may sit between its parts: lang/thai.js).
WORD_LINES = """([sel, words]) => {
  const out = [];
  for (const el of document.querySelectorAll(sel)) {
    if (!el.checkVisibility()) continue;
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      for (const word of words) {
        const re = new RegExp([...word].join('\u2060?'), 'g');
        for (const m of node.data.matchAll(re)) {
          const range = document.createRange();
          range.setStart(node, m.index);
          range.setEnd(node, m.index + m[0].length);
          const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0)
            .map((r) => Math.round(r.top)));
          out.push([word, tops.size]);
        }
      }
    }
  }
  return out;
}"""


def words_whole(page: Page, sel: str, words: tuple[str, ...]) -> int:
    """Assert no occurrence of `words` in the `sel` elements is broken across lines (each sits
    in one line box); how many occurrences were measured."""
    found = page.evaluate(WORD_LINES, [sel, list(words)])
    broken = [word for word, lines in found if lines != 1]
    assert not broken, f"words broken across lines in {sel}: {broken}"
    return len(found)


BAR_FIT = """() => {
  const a = document.getElementById('actionbar'); const b = a.getBoundingClientRect();
  const rows = [...a.children].filter(e => e.checkVisibility());
  const pad = parseFloat(getComputedStyle(a).paddingBottom);
  const last = Math.max(...rows.map(e => e.getBoundingClientRect().bottom));
  return {blank: Math.round(b.bottom - last - pad),
          overflow: a.scrollHeight - a.clientHeight,
          cut: [...a.querySelectorAll('button')].filter(e => e.checkVisibility())
            .filter(e => { const r = e.getBoundingClientRect();
              return r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5; })
            .map(e => e.textContent.trim())}; }"""


def bar_fits_its_content(page: Page) -> None:
    """Issue 43: the action bar is as tall as what it says (no blank rows, no hidden
    overflow) and cuts none of its buttons."""
    got = page.evaluate(BAR_FIT)
    assert got["blank"] <= 2 and got["overflow"] <= 1 and not got["cut"], got


TILES_HEADING = """async () => {
  const { t } = await import('/static/js/lang/i18n.js');
  const me = document.querySelector('.pboard.is-me');
  const head = me.querySelector('.tiles-title'), tiles = me.querySelector('.tiles');
  const r = head.getBoundingClientRect(), g = tiles.getBoundingClientRect();
  const m = me.getBoundingClientRect();
  return {lit: !!me.querySelector('.tile.on'), shown: head.checkVisibility(),
          text: head.textContent, name: t('pb.tiles'),
          above: r.bottom <= g.top + 1 && g.top - r.bottom <= 12,
          inside: r.left >= m.left - 0.5 && r.right <= m.right + 0.5 && r.left >= 0
            && r.right <= innerWidth,
          overflow: head.scrollWidth - head.clientWidth}; }"""


def tiles_headed(page: Page) -> None:
    """Issue 43: until one of your upgrade tiles lights up, the four faint tiles have a
    heading in your language, right above them, inside your board and the window."""
    got = page.evaluate(TILES_HEADING)
    if got["lit"]:
        assert not got["shown"], got
        return
    assert got["shown"] and got["text"].startswith(got["name"]), got
    assert got["above"] and got["inside"] and got["overflow"] <= 1, got


# The shown elements whose own text is Thai and whose style lets a line break inside a word
# (overflow-wrap: anywhere, word-break: break-all / break-word) rather than where Thai
# line breaking puts it.
THAI_BREAKERS = """() => [...document.querySelectorAll('body *')].filter((e) => e.checkVisibility()
    && [...e.childNodes].some((n) => n.nodeType === 3 && /[\\u0E00-\\u0E7F]/.test(n.textContent)))
  .filter((e) => { const s = getComputedStyle(e);
    return s.overflowWrap === 'anywhere' || ['break-all', 'break-word'].includes(s.wordBreak); })
  .map((e) => `${e.className || e.tagName}: ${e.textContent.trim().slice(0, 30)}`)"""


def thai_breaks_between_words(page: Page) -> None:
    """Issue 43: no Thai text on the page is styled to break inside a word."""
    found = page.evaluate(THAI_BREAKERS)
    assert found == [], f"Thai text that may break inside a word: {found}"


# Pairs of a walk's step numbers on the board (walked or hinted) that lie over one another
# (issue 43: a hint's number hidden under the walk's on a cell walked onto).
STEP_NUMBER_OVERLAPS = """() => {
  const dots = [...document.querySelectorAll('#board .path-dot, #board .hint-path-dot')];
  const meets = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
    && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const out = [];
  dots.forEach((a, i) => dots.slice(i + 1).forEach((b) => {
    if (meets(a.getBoundingClientRect(), b.getBoundingClientRect()))
      out.push([a.textContent, b.textContent]); }));
  return out; }"""

"""Your own board uses the desktop's room (issue 43): your own column got wider (360 px at
1440×900, 392 at 1366×768, ~610 at 1920×1080) while your order cards and cups kept their
24 px icons; now the icons in your recipes and cups grow with the column (never under
24 px, never so big that your board leaves the window: several cards on a tab, the hand in
the bar, the chat docked under it shrink them back), the cup silhouette fills its card, the
cards stay inside the column without overlapping, and their names stay whole in en/th/ko.
Also: the toast after a bot played for you covers nothing a player needs. Bounding boxes."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .geometry import BAR_FIT, covered_by, outside_window, words_fit
from .test_full_games import finish, seat_in_new_game
from .ui import screenshot

pytestmark = pytest.mark.browser

OWN = """async () => {
  await document.fonts.ready;
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  scrollTo(0, 0);
  const box = (e) => e.getBoundingClientRect();
  const me = document.querySelector('.pboard.is-me');
  const col = box(document.getElementById('me-area'));
  const cards = [...me.querySelectorAll('.tabs .card')];
  const cups = [...me.querySelectorAll('.cups .cup')];
  const parts = [...cards, ...cups].map((e) => [e.className, box(e)]);
  const meets = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
    && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const overlaps = [];
  parts.forEach(([na, a], i) => parts.slice(i + 1).forEach(([nb, b]) => {
    if (meets(a, b)) overlaps.push(`${na} / ${nb}`); }));
  const slot = box(me.querySelector('.cups .slot'));
  return {
    h: innerHeight, page: document.scrollingElement.scrollHeight, bottom: box(me).bottom,
    cards: cards.length,
    ico: Math.min(...cards.flatMap((c) => [...c.querySelectorAll('.recipe .ico')])
      .map((i) => box(i).width)),
    // a cup's place: as tall as the icon it holds, and two of them side by side
    slot: Math.min(slot.height - 2, slot.width),
    fill: Math.min(...cards.map((c) => box(c.querySelector('.card-cup')).width / box(c).width)),
    outside: parts.filter(([, r]) => r.left < col.left - 0.5 || r.right > col.right + 0.5)
      .map(([n]) => n),
    overlaps,
    clipped: cards.map((c) => c.querySelector('.card-name')).filter((n) =>
      n.scrollWidth > n.clientWidth + 1 || n.scrollHeight > n.clientHeight + 1
      || box(n).right > box(n.parentElement).right + 0.5).map((n) => n.textContent),
  };
}"""
# The docked chat's reaction buttons: width and height of each.
REACTIONS = """() => [...document.querySelectorAll('#talk .reaction')]
  .filter((e) => e.checkVisibility())
  .map((e) => { const r = e.getBoundingClientRect();
    return [r.width, r.height].map(Math.round); })"""
# The icons' size in your own recipes and cups: before (24 px at every width), and now at
# least (the column's width less its margins, over 8, less 12 px: table-fit.css).
SIZES = {(1440, 900): 28, (1366, 768): 32, (1920, 1080): 40}


def own_board(page: Page, width: int, height: int, lang: str, floor: int,
              fill: float = 0.8) -> dict[str, Any]:
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_timeout(100)
    got: dict[str, Any] = page.evaluate(OWN)
    print(f"own board {lang} {width}x{height}: icons 24 -> {got['ico']:.1f} px, cups "
          f"24 -> {got['slot']:.1f} px, cup silhouette {got['fill']:.0%} of its card, "
          f"{got['h'] - got['bottom']:.0f} px left below")
    assert got["cards"] >= 2, got
    assert got["ico"] >= floor and got["slot"] >= floor, got
    assert got["fill"] >= fill, f"the card's cup does not fill the card: {got}"
    assert got["outside"] == [] and got["overlaps"] == [] and got["clipped"] == [], got
    assert got["page"] <= got["h"] and got["bottom"] <= got["h"] - 8 + 0.5, got
    return got


@pytest.mark.parametrize(("players", "locale"), [(2, "en-US"), (3, "th-TH"), (4, "ko-KR")])
def test_your_own_cards_fill_your_column(new_page, base_url: str, players: int,  # noqa: ANN001
                                         locale: str) -> None:
    page = new_page(width=1440, height=900, locale=locale)
    bots = seat_in_new_game(page, base_url, players, "Mina", delay=2)
    page.wait_for_selector("#game:not([hidden])")
    page.wait_for_selector(".pboard.is-me .tabs .card")
    lang = locale[:2]
    for (width, height), floor in SIZES.items():
        own_board(page, width, height, lang, floor)
        words_fit(page)
        bad = outside_window(page, {"#prompt": "prompt", "#board": "board",
                                    ".pboard.is-me": "your board"})
        assert not bad, bad
        screenshot(page, f"own-board-{players}p-{width}-{lang}", full_page=False)
    # With the chat docked under your board (1366×768), the cards give it room: your board,
    # the board and the chat's input stay in the window, the icons 24 px at least.
    page.set_viewport_size({"width": 1366, "height": 768})
    page.locator("#talk-toggle").click()
    expect(page.locator("#talk-input")).to_be_focused()
    got = own_board(page, 1366, 768, lang, 24, fill=0)
    assert page.evaluate("scrollY") == 0
    bad = outside_window(page, {"#prompt": "prompt", "#board": "board",
                                ".pboard.is-me": "your board", "#talk form": "chat input"})
    # Whatever your board holds (two cards on a tab in Thai with three players, the icons at
    # their 24 px floor), the chat's input stays in the window: short of room, the chat puts
    # its reactions beside its title (layout.js fitChat). Before, it was cut off there.
    assert not bad, f"with the chat open: {bad}, {got}"
    # Its reactions, beside its title or in their own row, are comfortable targets (issue 43:
    # beside the title they were 34×32 px).
    tight = page.evaluate("document.getElementById('talk').classList.contains('tight')")
    sizes = page.evaluate(REACTIONS)
    print(f"chat {lang} {players}p: {'reactions beside the title' if tight else 'own row'}, "
          f"{sizes}")
    assert sizes and all(w >= 40 and h >= 40 for w, h in sizes), (tight, sizes)
    assert got["ico"] < SIZES[(1366, 768)] or got["h"] - got["bottom"] >= 200, got
    screenshot(page, f"own-board-chat-{players}p-1366-{lang}", full_page=False)
    page.locator("#talk-toggle").click()
    own_board(page, 1366, 768, lang, SIZES[(1366, 768)])  # closed: as big again
    for b in bots:
        b.done.set()
    finish(bots)


# The toast a player sees once a bot has played for them (notes.js), in their language,
# as long as a whole stood-in turn makes it: shown the way notes.js shows it.
BOT_DID = """async () => {
  const { t } = await import('/static/js/lang/i18n.js');
  const did = [t('did.stopped', { steps: 3, cell: t('ing.coffee') }),
               t('did.poured', { ing: t('ing.milk'), cup: 1 }),
               t('did.poured', { ing: t('ing.caramel'), cup: 2 }),
               t('did.served', { card: 'Caramel Macchiato' }), t('did.turn_ended')];
  const toast = document.getElementById('toast');
  toast.textContent = t('standIn.did', { did: did.join(t('did.join')) });
  toast.hidden = false;
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
}"""
# How much taller the toast is than its text (its padding: 2 × 10 px, and its border).
TIGHT = """() => { const toast = document.getElementById('toast');
  const range = document.createRange(); range.selectNodeContents(toast);
  return toast.getBoundingClientRect().height - range.getBoundingClientRect().height; }"""
# What a player needs on screen, which the toast must not cover (selectors; every match).
NEEDED = ("#board", "#supply", "#supply-list .sup", ".pboard", "#actionbar", "#actionbar button",
          "#log-list li", "#talk", ".side-tabs [role=tab]")


@pytest.mark.parametrize("locale", ["en-US", "th-TH", "ko-KR"])
def test_the_bot_played_for_you_toast_covers_nothing(new_page, base_url: str,  # noqa: ANN001
                                                     locale: str) -> None:
    """Issue 43: at 1440 the toast sat over the supply's last line (the window's bottom
    centre), and on a phone over the action bar's buttons. Now, wide, it sits in your own
    column under your board (under the docked chat when open) or under the side column,
    covering no part a player needs; on a phone it is the action bar's first row, the bar
    growing by it and cutting none of its buttons. Inside the window either way."""
    page = new_page(width=360, height=740, locale=locale)
    bots = seat_in_new_game(page, base_url, 2, "Mina", delay=2)
    page.wait_for_selector("#game:not([hidden])")
    page.wait_for_selector(".pboard.is-me .tabs .card")
    lang = locale[:2]
    for width, height in ((360, 740), (1366, 768), (1440, 900), (1920, 1080)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(100)
        page.evaluate("() => { document.getElementById('toast').hidden = true; }")
        page.evaluate(BOT_DID)
        page.evaluate("() => scrollTo(0, 0)")
        expect(page.locator("#toast")).to_be_visible()
        if width < 600:  # a row of the bar: it covers none of the bar's buttons, nor the board
            assert page.evaluate("document.getElementById('toast').parentElement.id") == "actionbar"
            assert covered_by(page, "#toast", ("#board", "#actionbar button")) == [], lang
            bar = page.evaluate(BAR_FIT)
            assert bar["overflow"] <= 1 and not bar["cut"], (lang, bar)
        else:
            assert covered_by(page, "#toast", NEEDED) == [], (width, lang)
        bad = outside_window(page, {"#toast": "the toast"})
        assert not bad, (width, lang, bad)
        assert page.evaluate(TIGHT) <= 24, f"the toast is taller than what it says ({width})"
        screenshot(page, f"toast-{width}-{lang}", full_page=False)
        if width == 1366:  # the chat docked under your board: the toast under it, or over
            page.locator("#talk-toggle").click()  # its older lines, never its controls
            page.wait_for_timeout(100)
            screenshot(page, f"toast-chat-{width}-{lang}", full_page=False)
            assert covered_by(page, "#toast", (*NEEDED[:-2], "#talk form", "#talk .talk-head",
                                                "#talk .reaction")) == [], lang
            assert not outside_window(page, {"#toast": "the toast"}), lang
            page.locator("#talk-toggle").click()
    for b in bots:
        b.done.set()
    finish(bots)

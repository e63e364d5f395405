"""Every card readable (issue 43): on a desktop the other players' orders and cups grow with
the room their column has. Before, with two or three players they were real cards with 20 px
icons at every width, and with four players 13 px chips at every width, though the side
column often had room under them. Now their icons are as big as a tab's width allows (25 px)
and no bigger than the column's height leaves: 1 px smaller at a time while the side column
would need its own scroll (with two or three players the log under them keeps a usable
height), never under 20 px drawn as cards; with four players, as chips (the zoom shows any of
them whole) when 20 px cards do not fit. The board keeps its size, the page never scrolls, the
cards stay inside their column without overlapping, and Thai and Korean names are not cut. A
phone's opponents are unchanged. Bounding boxes."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .geometry import outside_window, words_fit
from .test_desktop_fit import BOARD
from .test_full_games import finish, seat_in_new_game
from .ui import screenshot

pytestmark = pytest.mark.browser

# The opponents' boards, measured: the least recipe icon and cup place (a place is as tall as
# the icon it holds plus 2 px, and two of them sit side by side), whether the orders are drawn
# as cards, what lies outside the side column or overlaps, which names are cut.
OPPONENTS = """async () => {
  await document.fonts.ready;
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  scrollTo(0, 0);
  const box = (e) => e.getBoundingClientRect();
  const side = document.getElementById('side');
  const col = box(side);
  const boards = [...document.querySelectorAll('#players .pboard.compact')];
  const cards = boards.flatMap((b) => [...b.querySelectorAll('.tabs .card')]);
  const slots = boards.flatMap((b) => [...b.querySelectorAll('.cups .slot')]);
  const least = (xs) => (xs.length ? Math.min(...xs) : null);
  const meets = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
    && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const overlaps = [];
  const outside = [];
  for (const b of boards) {
    const parts = [...b.querySelectorAll('.tabs .card, .cups .cup, .stats')]
      .map((e) => [e.className, box(e)]);
    parts.forEach(([na, ra], i) => parts.slice(i + 1).forEach(([nb, rb]) => {
      if (meets(ra, rb)) overlaps.push(`${na} / ${nb}`); }));
    const own = box(b);
    for (const [n, r] of parts) {
      if (r.left < own.left - 0.5 || r.right > own.right + 0.5 || r.left < col.left - 0.5
          || r.right > col.right + 0.5) outside.push(n);
    }
  }
  // a name wider than its box (words break between words only), or out of its board or card
  const cut = (e) => e.scrollWidth > e.clientWidth + 1
    || box(e).right > box(e.closest('.card') || e.closest('.pboard')).right + 0.5
    || box(e).bottom > box(e.closest('.card') || e.closest('.pboard')).bottom + 0.5;
  const list = document.getElementById('log-list');
  return {
    h: innerHeight, page: document.scrollingElement.scrollHeight,
    board: box(document.getElementById('board')).width,
    cards: cards.length,
    drawn: cards.filter((c) => c.querySelector('.card-name').checkVisibility()
      && c.querySelector('.card-cup-art').checkVisibility()).length,
    ico: least(cards.flatMap((c) => [...c.querySelectorAll('.recipe .ico')])
      .map((i) => Math.min(box(i).width, box(i).height))),
    slot: least(slots.map((s) => Math.min(box(s).height - 2, box(s).width))),
    // the side column's own scroll, and the log's list in view under the opponents
    scroll: side.scrollHeight - side.clientHeight,
    log: list.checkVisibility() ? Math.min(box(list).bottom, col.bottom) - box(list).top : null,
    outside, overlaps,
    names: [...boards.flatMap((b) => [...b.querySelectorAll('.pname, .card-name')])]
      .filter((e) => e.checkVisibility() && cut(e)).map((e) => e.textContent),
    fit: side.classList.contains('opp-fit'), opp: side.style.getPropertyValue('--opp-ico'),
  };
}"""

# The icons' size in the opponents' recipes and cups: before (the same at every width), and
# now at least, at a game's start (the fixed deal), for 2, 3 and 4 players.
BEFORE = {2: 20.0, 3: 20.0, 4: 13.4}
NOW = {
    2: {(1440, 900): 25, (1366, 768): 25, (1920, 1080): 25},
    3: {(1440, 900): 25, (1366, 768): 20, (1920, 1080): 25},
    4: {(1440, 900): 20, (1366, 768): 20, (1920, 1080): 25},
}
# Names in each language's script, long enough to test the name line (at most 24 characters).
NAMES = {
    "en": ["Rowan Featherstonehaugh", "Mochaccino Maximilian", "Bartholomew Brewster"],
    "th": ["ประเสริฐศักดิ์ ใจดี", "สมหญิง รักเรียนดี", "กาแฟเย็นหวานน้อย"],
    "ko": ["김민준의 커피 가게", "박서연 바리스타", "이도윤과 카페라떼"],
}


def opponents(page: Page, width: int, height: int, players: int, lang: str,
              floor: float) -> dict[str, Any]:
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_timeout(150)
    got: dict[str, Any] = page.evaluate(OPPONENTS)
    print(f"opponents {players}p {lang} {width}x{height}: icons {BEFORE[players]} -> "
          f"{got['ico']:.1f} px, cups -> {got['slot']:.1f} px, "
          f"{'cards' if got['drawn'] == got['cards'] else 'chips'}, side scroll {got['scroll']}, "
          f"log {got['log']}")
    assert got["fit"], got
    assert got["cards"] >= 2 * (players - 1), got
    assert got["ico"] >= floor - 0.5 and got["slot"] >= floor - 0.5, got
    assert got["outside"] == [] and got["overlaps"] == [], got
    assert got["names"] == [], f"names cut: {got}"
    assert got["page"] <= got["h"], f"the page scrolls: {got}"
    assert got["board"] >= BOARD[(width, height)][1], f"the board shrank: {got}"
    if players < 4:  # real cards, as before; the log keeps its room unless at the floor
        assert got["drawn"] == got["cards"], got
        assert got["ico"] <= 20.5 or got["scroll"] <= 1 or got["log"] >= 119, got
    else:  # the opponents fill their tab without a scroll (the log is the other tab)
        assert got["scroll"] <= 1, got
    return got


@pytest.mark.parametrize(("players", "locale"), [(2, "en-US"), (2, "ko-KR"), (3, "th-TH"),
                                                 (3, "ko-KR"), (4, "en-US"), (4, "th-TH")])
def test_the_opponents_cards_use_their_column(new_page, base_url: str,  # noqa: ANN001
                                              players: int, locale: str) -> None:
    page = new_page(width=1440, height=900, locale=locale)
    lang = locale[:2]
    bots = seat_in_new_game(page, base_url, players, "Mina", delay=3,
                            bot_names=NAMES[lang][:players - 1])
    page.wait_for_selector("#game:not([hidden])")
    page.wait_for_selector("#players .pboard.compact .card")
    for (width, height), floor in NOW[players].items():
        opponents(page, width, height, players, lang, floor)
        words_fit(page)
        bad = outside_window(page, {"#prompt": "prompt", "#board": "board",
                                    ".pboard.is-me": "your board", "#side": "side column"})
        assert not bad, bad
        screenshot(page, f"opponents-{players}p-{width}-{lang}", full_page=False)
    # Three more orders on an opponent's first tab: the icons give back the room, 1 px at a
    # time (never under 20 px as cards; four players' chips down to 14 px), and come back.
    page.set_viewport_size({"width": 1366, "height": 768})
    page.evaluate("""async () => {
      const { cardNode } = await import('/static/js/table/view-player.js');
      const tab = document.querySelector('#players .pboard.compact .tab-1 .tab-cards');
      for (const id of [9001, 9002, 9003]) {
        const card = cardNode({id, name: 'Caramel Macchiato', recipe: {coffee: 2, milk: 2},
                               specialty: id === 9002});
        card.classList.add('extra');
        tab.append(card);
      }
    }""")
    crowded = opponents(page, 1366, 768, players, lang, 20 if players < 4 else 14)
    screenshot(page, f"opponents-more-{players}p-1366-{lang}", full_page=False)
    page.evaluate("() => document.querySelectorAll('#players .extra').forEach((c) => c.remove())")
    again = opponents(page, 1366, 768, players, lang, NOW[players][(1366, 768)])
    assert crowded["ico"] <= again["ico"], (crowded, again)
    # A hover zooms any chip or card into the whole card (tap and keyboard: test_cards.py).
    chip = "#players .pboard.compact .card"
    page.locator(chip).first.hover()
    expect(page.locator("#card-zoom")).to_be_visible()
    page.mouse.move(2, 2)  # (even if a bot's move redrew the chip meanwhile: test_zoom_leaves)
    expect(page.locator("#card-zoom")).to_be_hidden()
    # A phone's opponents are as they were: no fit, 20 px icons.
    page.set_viewport_size({"width": 360, "height": 740})
    page.wait_for_timeout(100)
    phone = page.evaluate("""() => { const side = document.getElementById('side');
      return {fit: side.classList.contains('opp-fit') || side.classList.contains('opp-cards'),
              opp: side.style.getPropertyValue('--opp-ico'),
              ico: getComputedStyle(document.querySelector('#players .pboard.compact .card'))
                .getPropertyValue('--ico').trim()}; }""")
    assert phone == {"fit": False, "opp": "", "ico": "20px"}, phone
    for b in bots:
        b.done.set()
    finish(bots)

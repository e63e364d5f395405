"""Cards you can read at a glance (issue 26): on your own board every ingredient icon, in an
order's recipe, in a cup and in the hand, is at least 24 CSS px on a desktop and 20 px on a
phone; an order card is drawn (a cup silhouette holding the recipe, the point it scores);
Specialty and upgrade state show without reading; with four players at 1366×768 the log is
a tab beside the opponents, reachable without scrolling the page (with fewer, it shows under
them). Opponents' chips carry 20 px icons where there is room and zoom full size on hover,
tap or keyboard focus, as do upgrade tiles and the supply (issue 43)."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import Page, expect

from .geometry import words_fit, words_whole
from .test_full_games import MY_TURN_OR_OVER, finish, seat_in_new_game
from .test_one_screen import phase
from .ui import CANDIDATES, save_shot, screenshot, settled, wait_for

pytestmark = pytest.mark.browser

SIZES = ((1440, 900, 24), (1366, 768, 24), (360, 740, 20))

# The smallest box of each kind of ingredient icon on your own board and in your hand.
ICON_SIZES = """() => {
  const sizes = (sel) => [...document.querySelectorAll(sel)]
    .filter(e => e.getClientRects().length)
    .map(e => { const r = e.getBoundingClientRect(); return Math.min(r.width, r.height); });
  return {
    recipe: sizes('.pboard.is-me .recipe .ico'),
    cup: sizes('.pboard.is-me .slot .ico'),
    slot: sizes('.pboard.is-me .slot'),
    hand: sizes('#hand .token .ico'),
  };
}"""

# Each of your order cards: its cup drawing, its recipe inside the drawing, its point.
CARD_PARTS = """() => [...document.querySelectorAll('.pboard.is-me .card')].map(c => {
  const box = (sel) => { const e = sel ? c.querySelector(sel) : c; if (!e) return null;
    const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  return {art: box('.card-cup-art'), recipe: box('.recipe'), pts: box('.card-pts'),
          card: box(null), pts_text: (c.querySelector('.card-pts') || {}).textContent};
})"""

# A Specialty card and an active tile, made by the page's own modules beside the real ones.
MARKS = """async () => {
  const { cardNode } = await import('/static/js/table/view-player.js');
  const tab = document.querySelector('.pboard.is-me .tab-1 .tab-cards');
  const plain = cardNode({id: 9001, name: 'Plain', recipe: {coffee: 2, milk: 1}, specialty: false});
  const special = cardNode({id: 9002, name: 'Gold', recipe: {tea: 1, water: 2}, specialty: true});
  tab.append(plain, special);
  const star = special.querySelector('.star').getBoundingClientRect();
  const look = (e) => {
    const s = getComputedStyle(e); return [s.borderTopColor, s.backgroundImage]; };
  const out = {star: Math.min(star.width, star.height), plain: look(plain), special: look(special),
               plainStar: Boolean(plain.querySelector('.star'))};
  plain.remove(); special.remove();
  const tile = document.querySelector('.pboard.is-me .tile:not(.on)');
  const glyph = tile.querySelector('.tile-glyph');
  const off = getComputedStyle(tile), offGlyph = getComputedStyle(glyph);
  const was = [off.backgroundColor, offGlyph.color, glyph.getBoundingClientRect().width];
  tile.classList.add('on');
  const on = getComputedStyle(tile), onGlyph = getComputedStyle(glyph);
  out.tile = {off: was, on: [on.backgroundColor, onGlyph.color]};
  tile.classList.remove('on');
  return out;
}"""


def check_sizes(page: Page, label: str, need_hand: bool) -> None:
    got = page.evaluate(ICON_SIZES)
    for width, height, least in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(50)
        got = page.evaluate(ICON_SIZES)
        assert got["recipe"], "no recipe icons on your board"
        assert got["slot"], "no cup places on your board"
        for kind in ("recipe", "cup", "slot", "hand"):
            small = [round(s, 1) for s in got[kind] if s < least - 0.5]
            assert not small, f"{label} at {width}px: {kind} icons below {least}px: {small}"
        if need_hand:
            assert got["hand"], f"{label}: no tokens in hand to measure"


# Opponents' order chips whose recipe icons do not all lie inside the chip.
OVERFLOWING_CHIPS = """() => [...document.querySelectorAll('.pboard.compact .card')]
  .filter(c => c.getClientRects().length)
  .filter(c => { const b = c.getBoundingClientRect();
    return [...c.querySelectorAll('.recipe .ico')].some(i => { const r = i.getBoundingClientRect();
      return r.left < b.left - 0.5 || r.right > b.right + 0.5 || r.bottom > b.bottom + 0.5; }); })
  .map(c => c.getAttribute('aria-label'))"""


def check_cards_drawn(page: Page) -> None:
    clipped = page.evaluate(OVERFLOWING_CHIPS)
    assert not clipped, f"opponents' order chips cut off: {clipped}"
    cards = page.evaluate(CARD_PARTS)
    assert cards, "no order cards on your board"
    for c in cards:
        assert c["art"] and c["recipe"] and c["pts"], f"card not drawn: {c}"
        al, at, ar, ab = c["art"]
        rl, rt, rr, rb = c["recipe"]
        assert al - 0.5 <= rl and at - 0.5 <= rt and rr <= ar + 0.5 and rb <= ab + 0.5, \
            f"the recipe is not inside the cup: {c}"
        cl, ct, cr, cb = c["card"]
        pl, pt, pr, pb = c["pts"]
        assert cl <= pl and ct <= pt and pr <= cr + 0.5 and pb <= cb + 0.5, \
            f"point off the card: {c}"
        assert c["pts_text"] == "+1"


def check_marks(page: Page) -> None:
    got = page.evaluate(MARKS)
    assert got["star"] >= 16, f"the Specialty star is small: {got['star']}px"
    assert not got["plainStar"], "a plain order shows a star"
    assert got["special"] != got["plain"], "a Specialty order looks like any other"
    assert got["tile"]["off"][:2] != got["tile"]["on"], "an active tile looks like an inactive one"
    assert got["tile"]["off"][2] >= 16, "upgrade glyphs are too small to tell apart"


# The words of the order names shown (Thai ones may carry word joiners: lang/thai.js).
NAME_WORDS = """() => [...new Set([...document.querySelectorAll('.pboard .card-name')]
  .filter((e) => e.checkVisibility())
  .flatMap((e) => e.textContent.replaceAll('\\u2060', '').split(' ')).filter(Boolean))]"""

# The smallest ingredient icon in the opponents' order chips and cups; with `old`, as drawn
# without this pass's stylesheet (the figures before it).
OPPONENT_ICONS = """(old) => {
  const sheet = [...document.styleSheets].find((s) => (s.href || '').endsWith('/cards.css'));
  if (old) sheet.disabled = true;
  const least = (sel) => Math.min(...[...document.querySelectorAll(sel)]
    .filter((e) => e.getClientRects().length)
    .map((e) => { const r = e.getBoundingClientRect(); return Math.min(r.width, r.height); }));
  const out = {recipe: least('.pboard.compact .recipe .ico'),
               cup: least('.pboard.compact .slot .ico')};
  sheet.disabled = false;
  return out;
}"""

# The zoom's box and what it shows, and the box of what it zooms.
ZOOM = """(sel) => {
  const el = document.querySelector(sel), tip = document.getElementById('card-zoom');
  const box = (e) => { const r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom]; };
  const icons = [...tip.querySelectorAll('.recipe .ico, .slot .ico')]
    .map((i) => i.getBoundingClientRect().width);
  return {shown: !tip.hidden, tip: box(tip), el: box(el), text: tip.textContent, icons,
          described: el.getAttribute('aria-describedby'), role: tip.getAttribute('role'),
          w: innerWidth, h: innerHeight};
}"""


def zoom_fits(got: dict) -> None:
    """The zoom is shown, inside the window, beside (not over) what it zooms: above or
    below it, or to its right or left (where above would cover your own points or controls:
    test_zoom_clear.py)."""
    assert got["shown"] and got["described"] == "card-zoom" and got["role"] == "tooltip", got
    left, top, right, bottom = got["tip"]
    assert left >= 0 and top >= 0 and right <= got["w"] and bottom <= got["h"], got
    el = got["el"]
    assert bottom <= el[1] + 0.5 or top >= el[3] - 0.5 or right <= el[0] + 0.5 \
        or left >= el[2] - 0.5, f"the zoom covers its chip: {got}"


def check_opponents(page: Page, players: int, lang: str) -> None:
    """Opponents' chips: 20 px icons where there is room (fewer than four players, or a narrow
    screen); any chip, tile or supply pile zooms full size on hover, tap or keyboard focus."""
    for width, height, _ in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(50)
        before, after = page.evaluate(OPPONENT_ICONS, True), page.evaluate(OPPONENT_ICONS, False)
        print(f"opponents' icons {players}p {lang} {width}x{height}: before {before} after {after}")
        if players < 4 or width < 1200:
            assert after["recipe"] >= 19.5, f"{width}px: opponents' recipe icons {after}"
            if after["cup"] != float("inf"):
                assert after["cup"] >= 19.5, f"{width}px: opponents' cup icons {after}"
    page.set_viewport_size({"width": 1366, "height": 768})
    page.wait_for_timeout(50)
    chip = ".pboard.compact .card"
    page.locator(chip).first.hover()  # a mouse over a chip: the whole card
    got = page.evaluate(ZOOM, chip)
    zoom_fits(got)
    assert min(got["icons"]) >= 30, f"the zoomed card's icons: {got['icons']}"
    screenshot(page, f"cards-zoom-1366-{lang}", full_page=False)
    page.mouse.move(2, 2)
    expect(page.locator("#card-zoom")).to_be_hidden()
    page.locator(chip).first.focus()  # the keyboard reaches it too, and Escape puts it away
    zoom_fits(page.evaluate(ZOOM, chip))
    page.keyboard.press("Escape")
    expect(page.locator("#card-zoom")).to_be_hidden()
    tile = ".pboard.is-me .tile"
    page.locator(tile).first.focus()
    got = page.evaluate(ZOOM, tile)
    zoom_fits(got)
    assert len(got["text"]) > 20, got  # the tile's name and what it does
    sup = "#supply-list .sup"
    page.locator(sup).first.focus()
    zoom_fits(page.evaluate(ZOOM, sup))
    page.set_viewport_size({"width": 360, "height": 740})  # a tap on a phone
    page.wait_for_timeout(50)
    page.locator('#side-tabs [data-panel="players"], .side-tab[data-panel="players"]').first.click()
    # (to the window's middle: at its bottom edge the phone's fixed bar lies over it)
    page.locator(chip).first.evaluate("(e) => e.scrollIntoView({block: 'center'})")
    page.locator(chip).first.click(force=True)  # (aria-disabled: it only zooms)
    got = page.evaluate(ZOOM, chip)
    zoom_fits(got)
    save_shot(page, f"cards-zoom-360-{lang}")  # as scrolled
    page.evaluate("window.scrollTo(0, 0)")  # the chip leaves the window: so does its zoom
    expect(page.locator("#card-zoom")).to_be_hidden()
    # (to the window's middle: at its bottom edge the phone's fixed bar lies over it)
    page.locator(chip).first.evaluate("(e) => e.scrollIntoView({block: 'center'})")
    page.locator(chip).first.click(force=True)
    page.locator("#board").click(position={"x": 5, "y": 5})  # a tap elsewhere
    expect(page.locator("#card-zoom")).to_be_hidden()
    page.set_viewport_size({"width": 1440, "height": 900})


def log_beside(page: Page) -> None:
    """With fewer than four players the log shows under the opponents, no tab needed."""
    page.set_viewport_size({"width": 1366, "height": 768})
    page.wait_for_timeout(50)
    assert page.locator("#side-tabs").is_hidden()
    assert page.locator("#log-list li").first.is_visible()
    assert page.locator("#players .pboard").first.is_visible()


def log_reachable(page: Page) -> None:
    """At 1366×768 the Log tab sits beside the opponents, and the log it shows is in the window."""
    page.set_viewport_size({"width": 1366, "height": 768})
    page.wait_for_timeout(50)
    page.evaluate("window.scrollTo(0, 0)")
    tab = page.locator('#side-tabs [data-panel="log"]')
    box = tab.bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= 768, \
        f"Log tab out of the window: {box}"
    tab.click()
    lst = page.locator("#log-list")
    box = lst.bounding_box()
    assert box and box["height"] > 100 and box["y"] + 60 <= 768, f"log not in the window: {box}"
    assert page.evaluate("document.scrollingElement.scrollTop") == 0, "the page scrolled"
    assert page.locator("#log-list li").count() > 0
    screenshot(page, "cards-log-tab-1366", full_page=False)
    page.locator('#side-tabs [data-panel="players"]').click()
    assert page.locator("#players .pboard").first.is_visible()


@pytest.mark.parametrize(("players", "locale"), [(4, "en-US"), (3, "th-TH"), (4, "ko-KR")])
def test_cards_read_at_a_glance(new_page, base_url: str, players: int, locale: str) -> None:  # noqa: ANN001
    page = new_page(width=1440, height=900, locale=locale)
    lang = locale[:2]
    bots = seat_in_new_game(page, base_url, players, "Mochaccino Maximilian")
    rng = random.Random(players + 7)
    seen: set[str] = set()
    for _ in range(300):
        wait_for(page, MY_TURN_OR_OVER, timeout=60_000)
        assert not page.locator("#final").is_visible(), "the game ended first"
        now = phase(page)
        if now in ("move", "pour") and now not in seen:
            seen.add(now)
            check_sizes(page, now, need_hand=now == "pour")
            for width, height, _ in SIZES:
                page.set_viewport_size({"width": width, "height": height})
                page.wait_for_timeout(50)
                check_cards_drawn(page)
                words_fit(page)
                # Each word of an order's name on one line, in every language (issue 43).
                words = tuple(page.evaluate(NAME_WORDS))
                words_whole(page, ".pboard .card-name", words)
                # And translated: no English order name inside a Thai or Korean table.
                latin = [w for w in words if lang != "en" and re.search("[A-Za-z]", w)]
                assert not latin, f"order names left in English: {latin}"
                screenshot(page, f"cards-{now}-{width}-{lang}", full_page=width < 600)
            page.set_viewport_size({"width": 1440, "height": 900})
        if seen == {"move", "pour"}:
            break
        page.locator(f'[data-cand="{rng.randrange(page.evaluate(CANDIDATES))}"]').click()
        settled(page)
    assert seen == {"move", "pour"}, f"phases seen: {seen}"
    check_opponents(page, players, lang)
    check_marks(page)
    if players == 4:
        log_reachable(page)
    else:
        log_beside(page)
    for b in bots:
        b.done.set()
    finish(bots)

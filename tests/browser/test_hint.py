"""Hints in Chromium (issue 27): in a room whose host allowed hints, the seated player whose
turn it is presses "Hint" (from the keyboard), the expert's move is outlined on the table
(the path's cells: R-MOVE) with one line of why, in the player's language and in the board's
own words (the cell's ingredient and where it sits, never a coordinate: issue 43); the walk
is numbered 1-2-3 as a walk is, and stays while the player follows it, until it is walked.
Motion is off for a reader who prefers less. The replay says each hint given, and outlines
it at the step where it was given."""

from __future__ import annotations

import json
import random
import re

import httpx
import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

from server.bots import greedy, hint
from server.history.document import FORMAT
from server.rules import MOVE, OVER, RULES_VERSION, apply, new_game, view

from .geometry import STEP_NUMBER_OVERLAPS, thai_breaks_between_words, words_whole
from .players import bot_table
from .ui import CANDIDATES, no_sideways_scroll, save_shot, screenshot, settled, wait_for

pytestmark = pytest.mark.browser

MINE = """() => document.body.dataset.busy === '0'
  && document.getElementById('table-root').classList.contains('my-turn')"""
CHOOSE_MEEPLE = "Choose which of your meeples moves this turn."
OUTLINED = """() => [...document.querySelectorAll('.hint-target')].map((e) => {
  const r = e.getBoundingClientRect();
  return {cell: e.dataset.cell || null, key: e.dataset.key || null,
          box: [r.x, r.y, r.width, r.height],
          animation: getComputedStyle(e).animationName,
          outline: getComputedStyle(e).outlineStyle};
})"""
NUMBERED = """() => [...document.querySelectorAll('#board .hint-path-dot')]
  .map((d) => [d.dataset.stepCell, d.textContent])"""
# Each number's box and its cell's, read in one go (read apart, a board still being laid
# out after a resize or a new language moved between the two reads on a loaded machine).
NUMBER_BOXES = """() => [...document.querySelectorAll('#board .hint-path-dot')].map((d) => {
  const r = d.getBoundingClientRect();
  const c = document.querySelector(`#board [data-cell="${d.dataset.stepCell}"]`)
    .getBoundingClientRect();
  return [d.dataset.stepCell, [r.x, r.y, r.width, r.height], [c.x, c.y, c.width, c.height]];
})"""
HINT_STROKE = """() => parseFloat(
  getComputedStyle(document.querySelector('.hint-path-line')).strokeWidth)"""
WALK_STROKE = """() => parseFloat(
  getComputedStyle(document.querySelector('.path-line')).strokeWidth) / 2"""
# The cell the hinted walk starts from: the first point of its line (a cell's centre in the
# board's 400×400 drawing).
WALK_START = """() => { const [x, y] = document.querySelector('.hint-path-line')
  .getAttribute('points').split(' ')[0].split(',').map(Number);
  return `r${y / 100 + 0.5}c${x / 100 + 0.5}`; }"""
ONLY_END_TURN = "() => { const n = (" + CANDIDATES + """)();
  const els = [...document.querySelectorAll('[data-cand]')];
  return n === 1 && els[0].textContent.trim() === 'End turn'; }"""
BOX = """(cell) => { const r = document.querySelector(`#board [data-cell="${cell}"]`)
  .getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; }"""


LONG_THAI_HINT = """async () => {
  const { whyLine } = await import('/static/js/table/hint.js');
  document.getElementById('hint-line').textContent = whyLine({ key: 'hint.why.move_rush_serve',
    args: { cell: 'r4c4', steps: 4, rush: 1, gains: { steam: 2, ice: 1, caramel: 1 },
            orders: ['Iced Caramel Macchiato', 'Caramel Frappe'] } });
}"""
LINES = """(sel) => { const e = document.querySelector(sel);
  const line = parseFloat(getComputedStyle(e).lineHeight);
  return Math.round(e.getBoundingClientRect().height / line); }"""


def step_labels(cells: list[str], first: int = 0) -> list[list[str]]:
    """The numbers a walk's cells show, first visit first: a cell walked onto twice says
    both steps ("1·3"), as static/js/table/step-numbers.js draws them."""
    steps: dict[str, list[int]] = {}
    for i, cell in enumerate(cells):
        steps.setdefault(cell, []).append(first + i + 1)
    return [[cell, "·".join(map(str, numbers))] for cell, numbers in steps.items()]


# Where the hinted path is drawn and numbered, read again at each size and language it is
# shown in (issue 43): each number inside its cell, the line bolder than a walk's.
def numbered_and_bold(page: Page, cells: list[str], first: int = 0) -> None:
    assert page.evaluate(NUMBERED) == step_labels(cells, first)
    for _ in range(50):  # until the board is laid out at this size and in this language
        boxes = page.evaluate(NUMBER_BOXES)
        if all(inside(number, cell_box) for _, number, cell_box in boxes):
            break
        page.wait_for_timeout(100)
    for cell, number, cell_box in boxes:
        assert inside(number, cell_box), (cell, number, cell_box)
    assert page.evaluate(HINT_STROKE) >= 2 * page.evaluate(WALK_STROKE)


def inside(inner: list[float], outer: list[float]) -> bool:
    x, y, w, h = inner
    ox, oy, ow, oh = outer
    return ox <= x and oy <= y and x + w <= ox + ow and y + h <= oy + oh


# The action bar's hidden overflow and the buttons it cuts (none when it fits its content).
BAR_CUTS = """() => {
  const bar = document.getElementById('actionbar'); const b = bar.getBoundingClientRect();
  return {overflow: bar.scrollHeight - bar.clientHeight,
          cut: [...bar.querySelectorAll('button')].filter(e => e.checkVisibility())
            .filter(e => { const r = e.getBoundingClientRect();
              return r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5
                || r.bottom > innerHeight + 0.5; })
            .map(e => e.textContent.trim())}; }"""


def through(ws: WebSocketRoute, hints: list[dict], refuse: dict[str, str | None]) -> None:
    """The table's socket, passed through to the server: the hints it answers are kept, and
    the step to `refuse["cell"]` is sent once with the version before the table's, which the
    server refuses as stale (as when the table moved on meanwhile)."""
    server = ws.connect_to_server()

    def from_page(message: str | bytes) -> None:
        frame = json.loads(message)
        if frame.get("type") == "act" and refuse["cell"] is not None \
                and frame["action"].get("cell") == refuse["cell"]:
            refuse["cell"] = None
            frame["v"] -= 1
        server.send(json.dumps(frame))

    def from_server(message: str | bytes) -> None:
        if isinstance(message, str) and message.startswith('{"type":"hint"'):
            hints.append(json.loads(message))
        ws.send(message)

    ws.on_message(from_page)
    server.on_message(from_server)


# The parts of your own board the phone's bar covers (bounding boxes), and the page's scroll.
UNDER_BAR = """() => { const top = document.getElementById('actionbar').getBoundingClientRect().top;
  const me = document.querySelector('.pboard.is-me');
  return [['the cups', '.cups'], ['the counts', '.stats'], ['the upgrade tiles', '.tiles'],
          ['your orders', '.tabs']]
    .filter(([, sel]) => me.querySelector(sel).getBoundingClientRect().bottom > top + 0.5)
    .map(([name]) => name).concat(scrollY ? [`scrolled ${scrollY}`] : []); }"""


def hint_room(base_url: str, page: Page) -> None:
    """A 2-player room allowing hints, made over HTTP: `page` in seat 0 (who starts), a
    random bot in seat 1."""
    code, token = bot_table(base_url, "Mina", hints=True, starting_player=0)
    room = code.replace("-", "")
    page.add_init_script(f"localStorage.setItem('cr.seat.{room}', '{token}')")
    page.goto(f"/r/{room}")


def test_a_hint_outlines_the_experts_move_and_says_why(new_page, base_url: str) -> None:  # noqa: ANN001
    page = new_page(width=1440, height=900)
    hints: list[dict] = []
    refuse: dict[str, str | None] = {"cell": None}  # the step the server will refuse (stale)
    page.route_web_socket(re.compile(r"/ws/"), lambda ws: through(ws, hints, refuse))
    hint_room(base_url, page)
    page.wait_for_selector("#game:not([hidden])")
    expect(page.locator("#hints-chip")).to_have_text("Hints on")
    ask = page.locator(".hint-btn")
    rng = random.Random(3)
    for _ in range(40):  # placement and the starting cup, at random, up to the first move
        wait_for(page, MINE)
        if page.locator("#prompt").text_content() == CHOOSE_MEEPLE:
            break
        expect(ask).to_be_visible()  # a hint may be asked at any decision of one's turn
        page.locator(f'[data-cand="{rng.randrange(page.evaluate(CANDIDATES))}"]').click()
        settled(page)
    else:
        raise AssertionError("never reached the first move")

    ask.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#hint-line")).to_be_visible(timeout=30_000)
    hint = hints[-1]
    path = hint["path"]
    assert hint["action"]["type"] == "choose_meeple" and path, hint
    outlined = page.evaluate(OUTLINED)
    meeple = [o for o in outlined if o["cell"] is None]
    assert [o["key"] for o in meeple] == [f"0-{hint['action']['meeple']}"]  # the one to move
    cells = [o for o in outlined if o["cell"] is not None]
    assert sorted(o["cell"] for o in cells) == sorted(set(path))
    for o in cells:  # each outline sits on its cell of the path
        assert o["box"] == page.evaluate(BOX, o["cell"])
    # With reduced motion a cell a bot just moved to is outlined for a moment (.motion-hl,
    # solid); when it lies on the hinted path, that outline shows until it goes.
    wait_for(page, "() => !document.querySelector('.hint-target.motion-hl')")
    outlined = page.evaluate(OUTLINED)
    for o in outlined:
        assert o["outline"] == "dashed" and o["animation"] == "none"  # reduced motion
    line = page.locator("#hint-line").text_content() or ""
    steps = f"{len(path)} step" + ("s" if len(path) > 1 else "")
    assert line.startswith(f"Expert's hint: Walk {steps} to the "), line
    assert not re.search(r"[rR]\d[cC]\d", line), line  # no coordinate the board does not draw
    numbered_and_bold(page, path)  # each number inside its cell, the line bold
    screenshot(page, "hint-1440-en")
    page.evaluate("() => import('/static/js/lang/i18n.js').then((m) => m.setLang('th'))")
    expect(page.locator("#hint-line")).to_contain_text(f"คำใบ้จากผู้เชี่ยวชาญ: เดิน {len(path)} ก้าว ไปที่")
    expect(ask).to_have_text("คำใบ้")
    page.set_viewport_size({"width": 360, "height": 800})  # a phone: the line fits, wrapped
    wait_for(page, "document.scrollingElement.scrollWidth <= 360", timeout=3000)  # re-laid out
    no_sideways_scroll(page)
    expect(page.locator("#hint-line")).to_be_in_viewport()
    screenshot(page, "hint-360-th")
    # Thai lines break between words only (issue 43): a long hint naming steam, ice and
    # caramel keeps each word on one line at 360 px.
    page.evaluate(LONG_THAI_HINT)
    assert words_whole(page, "#hint-line", ("ไอน้ำ", "น้ำแข็ง", "คาราเมล")) >= 4
    thai_breaks_between_words(page)  # nor the log, the prompt or the cards
    assert page.evaluate(LINES, "#hint-line") >= 3  # it did wrap
    screenshot(page, "hint-360-th-long")
    # Issue 43: on a 360×740 phone, with the hint line shown, the bar is as tall as what it
    # says and cuts none of its buttons (Undo and Hint were cut in half in th and ko).
    # Nor does the bar, its hint line two or three lines long, cover your own board's lowest
    # rows, the counts beside the cups and the upgrade tiles, with the page at its top.
    page.set_viewport_size({"width": 360, "height": 740})
    page.evaluate("() => scrollTo(0, 0)")
    for lang in ("th", "ko", "en"):
        page.evaluate(f"() => import('/static/js/lang/i18n.js').then((m) => m.setLang('{lang}'))")
        expect(page.locator("#hint-line")).to_be_in_viewport()
        assert page.evaluate(BAR_CUTS) == {"overflow": 0, "cut": []}, lang
        assert page.evaluate(LINES, "#hint-line") >= 2, lang
        assert page.evaluate(UNDER_BAR) == [], lang
        numbered_and_bold(page, path)  # issue 43: the numbered path on a phone too
        screenshot(page, f"hint-360-740-{lang}", full_page=False)
    # And at 1366×768 in Korean: the same path, numbered, bold, with its line of why.
    page.set_viewport_size({"width": 1366, "height": 768})
    page.evaluate("() => import('/static/js/lang/i18n.js').then((m) => m.setLang('ko'))")
    expect(page.locator("#hint-line")).to_contain_text("전문가의 힌트: ")
    expect(page.locator("#hint-line")).to_be_in_viewport()
    numbered_and_bold(page, path)
    screenshot(page, "hint-1366-ko", full_page=False)

    page.set_viewport_size({"width": 1440, "height": 900})
    page.evaluate("() => import('/static/js/lang/i18n.js').then((m) => m.setLang('en'))")
    start = page.locator(f'#board [data-cell="{page.evaluate(WALK_START)}"]')
    expect(start).to_have_attribute("aria-label", re.compile("move this meeple"))
    start.click()  # the hinted meeple
    settled(page)
    # The walk followed: the rest stays, numbered on, step after step at each size (issue
    # 43: 1440×900 en, 360×740 th, 1366×768 ko in turn).
    sizes = [((1440, 900), "en"), ((360, 740), "th"), ((1366, 768), "ko")]
    for i, cell in enumerate(path):
        (width, height), lang = sizes[i % 3]
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate(f"() => import('/static/js/lang/i18n.js').then((m) => m.setLang('{lang}'))")
        expect(page.locator("#hint-line")).to_be_visible()
        numbered_and_bold(page, path[i:], i)
        numbered = page.evaluate(NUMBERED)
        assert page.evaluate(STEP_NUMBER_OVERLAPS) == [], i  # none hides another
        if i:
            screenshot(page, f"hint-follow-{width}-{lang}", full_page=False)
        if i == 0:  # a step the server refuses is not walked: the numbers stay as they were
            refuse["cell"] = cell
            page.locator(f'#board [data-cell="{cell}"]').click()
            wait_for(page, "() => document.body.dataset.busy === '0'")
            assert refuse["cell"] is None  # it was sent, and refused
            expect(page.locator("#hint-line")).to_be_visible()
            assert page.evaluate(NUMBERED) == numbered
        page.locator(f'#board [data-cell="{cell}"]').click()
        settled(page)
    expect(page.locator("#hint-line")).to_be_hidden()  # walked: the hint is spent
    assert page.evaluate(OUTLINED) == [] and page.evaluate(NUMBERED) == []
    page.set_viewport_size({"width": 1440, "height": 900})
    page.evaluate("() => import('/static/js/lang/i18n.js').then((m) => m.setLang('en'))")

    # On through the turn at random, to where End turn is all that is left (R-TURN): the
    # line says so, and no hint can be asked (none spent on it).
    for _ in range(40):
        wait_for(page, MINE)
        if page.evaluate(ONLY_END_TURN):
            break
        page.locator(f'[data-cand="{rng.randrange(page.evaluate(CANDIDATES))}"]').click()
        settled(page)
    else:
        raise AssertionError("End turn never was the only thing left")
    expect(page.locator("#hint-line")).to_have_text(
        "Only End turn is left: nothing more to do this turn.")
    expect(ask).to_be_hidden()
    asked = len(hints)
    page.get_by_role("button", name="End turn", exact=True).click()
    settled(page)
    assert len(hints) == asked  # nothing was asked of the expert


def game_with_a_hint(seed: int) -> tuple[dict, dict]:
    """A 2-player game greedy plays to its end with the engine, as an export document whose
    talk holds the hint seat 0 was given at its first move (server/bots/hint.py); and
    that hint."""
    game = new_game(seed, 2)
    actions: list[list] = []
    given: dict | None = None
    while game.phase != OVER:
        seat = game.current
        if given is None and seat == 0 and game.phase == MOVE and game.moving is None:
            seen = view(game, seat)
            given = {"kind": "hint", "n": 1, "seat": seat, "after": len(actions), "at": 0,
                     **hint.suggest(seen, hint.hint_seed("HINTGAME", len(actions), seat), 0.05)}
        action = greedy.act(game)
        apply(game, action)
        actions.append([seat, action])
    assert given is not None and given["path"]
    doc = {"format": FORMAT, "rules_version": RULES_VERSION, "seed": seed,
           "options": {"players": 2, "hints": True},
           "players": [{"seat": 0, "name": "Mina", "bot": None},
                       {"seat": 1, "name": "Bo", "bot": None}],
           "actions": actions, "result": game.result, "talk": [given]}
    return json.loads(json.dumps(doc)), given


def test_the_replay_says_a_hint_and_outlines_it_where_it_was_given(new_page, base_url: str) -> None:  # noqa: ANN001
    doc, given = game_with_a_hint(11)
    made = httpx.post(f"{base_url}/api/games/import", json=doc)
    assert made.status_code == 201, made.text
    page = new_page(width=1440, height=900)
    page.goto(f"{made.json()['url']}?step={given['after']}")
    line = page.locator("#log-list .ev-talk-hint")
    expect(line).to_have_count(1)
    expect(page.locator("#token-state")).to_contain_text("Replay of a finished game")
    page.locator(".pboard.compact .card").first.focus()  # its chips zoom as at the table
    expect(page.locator("#card-zoom .card")).to_be_visible()
    page.keyboard.press("Escape")
    expect(line).to_contain_text("Hint for Mina: Walk ")
    expect(line).not_to_contain_text("(R")
    outlined = page.evaluate(OUTLINED)
    assert sorted(o["cell"] for o in outlined if o["cell"]) == sorted(set(given["path"]))
    page.locator("#rp-forward").click()  # the next step: the hint was for the one before
    expect(page.locator("body")).to_have_attribute("data-step", str(given["after"] + 1))
    assert page.evaluate(OUTLINED) == []


def test_the_waiting_room_tells_everyone_the_table_allows_hints(new_page, base_url: str) -> None:  # noqa: ANN001
    made = httpx.post(f"{base_url}/api/rooms", json={"players": 2, "hints": True})
    made.raise_for_status()
    plain = httpx.post(f"{base_url}/api/rooms", json={"players": 2})
    plain.raise_for_status()
    page = new_page(width=1440, height=900, locale="ko-KR")  # a visitor, not seated
    page.goto(f"/r/{made.json()['code'].replace('-', '')}")
    expect(page.locator(".wait-option-list")).to_contain_text("힌트 허용")
    page.goto(f"/r/{plain.json()['code'].replace('-', '')}")
    expect(page.locator(".wait-option-list li").first).to_be_visible()
    expect(page.locator(".wait-option-list")).not_to_contain_text("힌트 허용")


# A hint three lines long or more at 360 px in every language (the longest kind of why).
LONG_HINT = """async (lang) => {
  await import('/static/js/lang/i18n.js').then((m) => m.setLang(lang));
  const { whyLine } = await import('/static/js/table/hint.js');
  document.getElementById('hint-line').textContent = whyLine({ key: 'hint.why.move_rush_serve',
    args: { cell: 'r4c4', steps: 4, rush: 1, gains: { steam: 2, ice: 1, caramel: 1 },
            orders: ['Iced Caramel Macchiato', 'Caramel Frappe'] } });
}"""
# The bar's visible buttons, each: its text, enabled, and what it sticks out of or under
# (the bar, the window, the hint line's box).
BAR_BUTTONS = """() => {
  const bar = document.getElementById('actionbar').getBoundingClientRect();
  const hint = document.getElementById('hint-line').getBoundingClientRect();
  const meets = (r, o) => r.left < o.right - 0.5 && o.left < r.right - 0.5
    && r.top < o.bottom - 0.5 && o.top < r.bottom - 0.5;
  return [...document.querySelectorAll('#actionbar button')].filter((e) => e.checkVisibility())
    .map((e) => { const r = e.getBoundingClientRect(); const wrong = [];
      if (r.left < bar.left - 0.5 || r.right > bar.right + 0.5 || r.top < bar.top - 0.5
          || r.bottom > bar.bottom + 0.5) wrong.push('outside the bar');
      if (r.left < -0.5 || r.right > innerWidth + 0.5 || r.top < -0.5
          || r.bottom > innerHeight + 0.5) wrong.push('outside the window');
      if (meets(r, hint)) wrong.push('under the hint line');
      return { text: e.textContent.trim(), enabled: !e.disabled, wrong,
               box: [r.x, r.y, r.width, r.height].map(Math.round) }; }); }"""


# What the phone's bar covers: every control of the turn outside the bar (a legal cell, a
# target, an enabled button of the board or of your own board) it overlaps (the rest of the
# page, the other players and the log, lies below it as below the fold, a scroll away); and
# every part of your own board under it, with whether that part can be used now (an enabled,
# not merely zoomable, button in it).
UNDER_THE_BAR = """() => {
  const bar = document.getElementById('actionbar'); const b = bar.getBoundingClientRect();
  const under = (e) => { const r = e.getBoundingClientRect();
    return r.left < b.right - 1 && b.left < r.right - 1
      && r.top < b.bottom - 1 && b.top < r.bottom - 1; };
  const name = (e) => e.getAttribute('aria-label') || e.textContent.trim();
  const live = ':not(:disabled):not([aria-disabled=true])';
  const usable = [...document.querySelectorAll('#board .cell.legal, .target, '
    + `#board-area button:not(:disabled), .pboard.is-me button${live}`)]
    .filter((e) => !bar.contains(e) && e.checkVisibility());
  const me = document.querySelector('.pboard.is-me');
  const parts = [['cups', '.cups'], ['counts', '.stats'], ['upgrade tiles', '.tiles'],
                 ['orders', '.tabs']].filter(([, sel]) => under(me.querySelector(sel)));
  return {usable: usable.filter(under).map(name), parts: parts.map(([n]) => n),
          live: parts.filter(([, sel]) => me.querySelector(`${sel} button${live}`))
            .map(([n]) => n),
          top: Math.round(b.top)}; }"""


def test_the_phone_bar_keeps_its_buttons_whole_mid_walk_with_a_long_hint(  # noqa: ANN001
        new_page, base_url: str) -> None:
    """Issue 43: on a 360×740 phone, mid-walk (the hinted walk's first step taken, so Undo is
    on), with a hint line three lines long in th and ko (the longest) and en, every button of
    the action bar (Undo, End turn and the rest) lies whole inside the bar and the window,
    clear of the hint's text. The bar, that tall, may cover the row of your own upgrade tiles
    (they cannot be used during a walk: a tile is bought after serving, R-UPG), but no
    control the player can use at that moment (the next cells of the walk, an enabled button
    anywhere, a target); and scrolled to its end, the page shows your whole board above it."""
    page = new_page(width=360, height=740)
    hints: list[dict] = []
    page.route_web_socket(re.compile(r"/ws/"), lambda ws: through(ws, hints, {"cell": None}))
    hint_room(base_url, page)
    page.wait_for_selector("#game:not([hidden])")
    rng = random.Random(3)
    for _ in range(40):
        wait_for(page, MINE)
        if page.locator("#prompt").text_content() == CHOOSE_MEEPLE:
            break
        page.locator(f'[data-cand="{rng.randrange(page.evaluate(CANDIDATES))}"]').click()
        settled(page)
    else:
        raise AssertionError("never reached the first move")
    page.locator(".hint-btn").click()
    expect(page.locator("#hint-line")).to_be_visible(timeout=30_000)
    path = hints[-1]["path"]
    page.locator(f'#board [data-cell="{page.evaluate(WALK_START)}"]').click()
    settled(page)
    page.locator(f'#board [data-cell="{path[0]}"]').click()  # the first step of the walk
    settled(page)
    expect(page.locator("#undo-btn")).to_be_enabled()
    for lang in ("th", "ko", "en"):
        page.evaluate(LONG_HINT, lang)
        page.evaluate("() => scrollTo(0, 0)")
        assert page.evaluate(LINES, "#hint-line") >= 3, lang
        buttons = page.evaluate(BAR_BUTTONS)
        screenshot(page, f"hint-walk-360-740-{lang}", full_page=False)
        undo = page.locator("#undo-btn").text_content()
        assert [b["text"] for b in buttons if b["enabled"]].count(undo) == 1, (lang, buttons)
        assert [b for b in buttons if b["wrong"]] == [], (lang, buttons)
        assert page.evaluate(BAR_CUTS) == {"overflow": 0, "cut": []}, lang
        covered = page.evaluate(UNDER_THE_BAR)
        print(f"mid-walk {lang}: bar top {covered['top']}, over {covered['parts']}")
        assert covered["usable"] == [] and covered["live"] == [], (lang, covered)
        assert page.locator("#board .cell.legal").count() >= 1, lang  # the walk goes on
        page.evaluate("() => scrollTo(0, document.scrollingElement.scrollHeight)")
        assert page.evaluate(UNDER_THE_BAR)["parts"] == [], lang
        save_shot(page, f"hint-walk-360-740-{lang}-scrolled")

"""The phone's action bar at 360×740 in the pour and serve steps (issue 43), in en, th and ko.

A refusal's toast during your own turn (a real error frame from the server) covers nothing
you can use: not the walk's next cells, not your cups while a token is picked, not the
orders a picked cup can serve, not the bar's own buttons. And with the longest hint line in
the bar, during the pour and the serve steps, every button of the bar lies whole inside the
bar and the window, clear of the hint's text, and the bar covers none of your cups or orders
you need then; all at the top of the page, unscrolled (a whole phone turn fits one screen,
test_phone_still.py). Bounding boxes."""

from __future__ import annotations

import json
import random
import re

import httpx
import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

from server.rules import Game, apply, legal_actions, new_game
from tests.persist.live import Player

from .planner import plan_move, pour_actions
from .players import join
from .test_hint import (
    BAR_BUTTONS,
    BAR_CUTS,
    LINES,
    LONG_HINT,
    MINE,
    UNDER_THE_BAR,
    hint_room,
)
from .test_one_screen import phase
from .test_play import SEED, act
from .ui import CANDIDATES, laid_out, save_shot, screenshot, settled, wait_for

pytestmark = pytest.mark.browser

LANGS = ("en", "th", "ko")

# What the shown toast lies over that a player can use now (a legal cell, a target, an
# enabled button of the board, of your own board, of the bar or of the header); its box; and
# the bar's top.
UNDER_THE_TOAST = """() => {
  const toast = document.getElementById('toast'); const t = toast.getBoundingClientRect();
  const meets = (r) => r.left < t.right - 1 && t.left < r.right - 1
    && r.top < t.bottom - 1 && t.top < r.bottom - 1;
  const live = ':not(:disabled):not([aria-disabled=true])';
  const usable = [...document.querySelectorAll('#board .cell.legal, .target, '
    + `#board-area button${live}, .pboard.is-me button${live}, #actionbar button${live}, `
    + '.topbar button, .topbar a[href], .topbar summary')]
    .filter((e) => !toast.contains(e) && e.checkVisibility());
  return {over: usable.filter((e) => meets(e.getBoundingClientRect()))
            .map((e) => e.getAttribute('aria-label') || e.textContent.trim()),
          box: [t.left, t.top, t.right, t.bottom].map(Math.round),
          inside: t.top >= 0 && t.left >= 0 && t.bottom <= innerHeight && t.right <= innerWidth,
          bar: Math.round(document.getElementById('actionbar').getBoundingClientRect().top),
          text: toast.textContent}; }"""


def refusing(ws: WebSocketRoute, state: dict[str, bool]) -> None:
    """The table's socket, passed through to the server, except that while `state["spoil"]`
    is set, the next action the table sends is swapped for one the rules refuse now (placing
    a meeple, mid-turn: R-SETUP): the server answers with its real error frame."""
    server = ws.connect_to_server()

    def from_page(message: str | bytes) -> None:
        frame = json.loads(message)
        if frame.get("type") == "act" and state["spoil"]:
            state["spoil"] = False
            frame["action"] = {"type": "place", "cell": "r1c1"}
        server.send(json.dumps(frame))

    ws.on_message(from_page)
    server.on_message(ws.send)


def click_any(page: Page, rng: random.Random) -> None:
    page.locator(f'[data-cand="{rng.randrange(page.evaluate(CANDIDATES))}"]').click()
    settled(page)


def make_usable(page: Page) -> None:
    """What the step asks for next, picked: a token in your hand while pouring (your cups
    then take it), a cup while serving (the orders it serves light up)."""
    now = phase(page)
    if now == "pour" and not page.locator("#hand .token[aria-pressed=true]").count():
        tokens = page.locator("#hand .token:not(:disabled)")
        if tokens.count():
            tokens.first.click()
    if now == "process" and not page.locator(".pboard.is-me .cup[aria-pressed=true]").count():
        cups = page.locator(".pboard.is-me .cup.target")
        if cups.count():
            cups.first.click()
    laid_out(page)


# A step of the walk taken: its line has a cell after the one it started from.
WALKED = """() => (document.querySelector('#board .path-line').getAttribute('points') || '')
  .split(' ').filter(Boolean).length >= 2"""


def to_step(page: Page, rng: random.Random, wanted: str, walking: bool = False) -> None:
    """On at random through your turns to the step `wanted` (`walking`: a step of the walk
    already taken)."""
    for _ in range(300):
        wait_for(page, MINE, timeout=60_000)
        now = phase(page)
        if now == wanted and (not walking or page.evaluate(WALKED)):
            return
        click_any(page, rng)
    raise AssertionError(f"never reached {wanted}")


@pytest.mark.parametrize("locale", ["en-US", "th-TH", "ko-KR"])
def test_a_refusal_on_your_turn_covers_nothing_you_can_use(new_page, base_url: str,  # noqa: ANN001
                                                           locale: str) -> None:
    """Issue 43: the toast was always the bar's first row, the bar growing by it; while
    pouring at 360×740 the bar then covered the cups the picked token goes into (en and ko:
    bar top 555 -> 519, over "Pour milk into cup 1 (steam)" … and "Empty cup 1", "Empty cup
    3"). Now, where the bar so grown would cover something usable, the toast (and then the
    hint's line: refused, the player asks for a hint) floats over the board's lower part,
    inert while pouring. Mid-walk, pouring (a token picked) and serving (a cup picked when
    one can serve), the toast and the bar cover nothing usable and cut no button."""
    lang = locale[:2]
    page = new_page(width=360, height=740, locale=locale)
    state = refusing_game(page, base_url)
    rng = random.Random(5)
    for step, walking in (("move", True), ("pour", False), ("process", False)):
        to_step(page, rng, step, walking)
        expect(page.locator("#toast")).to_be_hidden(timeout=8000)  # the last step's gone
        make_usable(page)
        page.evaluate("() => scrollTo(0, 0)")  # where a whole turn is played
        before = page.evaluate(UNDER_THE_BAR)
        state["spoil"] = True
        for _ in range(20):  # picking a token or a cup sends nothing: on to what does
            if not state["spoil"]:
                break
            click_any(page, rng)
        expect(page.locator("#toast")).to_be_visible()
        assert phase(page) == step  # refused: nothing changed
        if step == "pour":  # refused, the player asks for a hint: the toast and its line
            page.locator(".hint-btn").click()
            expect(page.locator("#hint-line")).to_be_visible(timeout=4000)
        make_usable(page)
        page.evaluate("() => scrollTo(0, 0)")
        page.wait_for_timeout(100)
        toast = page.evaluate(UNDER_THE_TOAST)
        bar = page.evaluate(UNDER_THE_BAR)
        print(f"{lang} {step}: bar top {before['top']} -> {bar['top']}, toast {toast['box']}, "
              f"targets {page.locator('.target').count()}")
        save_shot(page, f"phone-refused-{step}-360-740-{lang}")
        assert toast["text"] and toast["inside"], (lang, step, toast)
        assert toast["over"] == [], (lang, step, toast)
        assert bar["usable"] == [] and bar["live"] == [], (lang, step, bar)
        assert page.evaluate(BAR_CUTS) == {"overflow": 0, "cut": []}, (lang, step)
        if step == "move":
            assert page.locator("#board .cell.legal").count() >= 1  # the walk goes on


@pytest.mark.parametrize("step", ["pour", "process"])
def test_the_phone_bar_with_a_long_hint_while_pouring_and_serving(new_page, base_url: str,  # noqa: ANN001
                                                                  step: str) -> None:
    """Issue 43: at 360×740, pouring (a token picked) and serving (a cup picked), with the
    longest hint line (three lines and more) in th, ko and en: every visible button of the
    bar lies whole in the bar and the window, clear of the hint's text; the bar covers none
    of your cups, orders or enabled controls; the page is not scrolled."""
    page = new_page(width=360, height=740)
    hint_room(base_url, page)
    page.wait_for_selector("#game:not([hidden])")
    rng = random.Random(7)
    to_step(page, rng, step)
    if page.locator(".hint-btn").is_visible():  # (with only End turn left, the line says so)
        page.locator(".hint-btn").click()
    expect(page.locator("#hint-line")).to_be_visible(timeout=30_000)
    make_usable(page)
    longest_hint_covers_nothing(page, step)


# The boxes of the bar's buttons and of your own board's enabled controls, and which of
# those the bar lies over.
OWN_CONTROLS = """() => {
  const bar = document.getElementById('actionbar'); const b = bar.getBoundingClientRect();
  const live = ':not(:disabled):not([aria-disabled=true])';
  const name = (e) => e.getAttribute('aria-label') || e.textContent.trim();
  const meets = (r) => r.left < b.right - 1 && b.left < r.right - 1
    && r.top < b.bottom - 1 && b.top < r.bottom - 1;
  const seen = (sel) => [...document.querySelectorAll(sel)].filter((e) => e.checkVisibility());
  const mine = seen(`.pboard.is-me button${live}, .pboard.is-me .target`);
  const buttons = seen('#actionbar .actions > .btn, #actionbar .phase-buttons .btn');
  const shown = (e) => { const after = getComputedStyle(e, '::after').content;
    return after.startsWith('"') ? after.slice(1, -1) : e.textContent.trim(); };
  const box = (e) => { const r = e.getBoundingClientRect();
    return [r.left, r.top, r.width, r.height].map(Math.round); };
  return {top: Math.round(b.top),
          under: mine.filter((e) => meets(e.getBoundingClientRect())).map(name),
          empties: seen('.pboard.is-me .empty-cup')
            .map((e) => Math.round(e.getBoundingClientRect().bottom)),
          rows: new Set(buttons.map((e) => Math.round(e.getBoundingClientRect().top))).size,
          buttons: buttons.map((e) => [shown(e), ...box(e)])}; }"""


@pytest.mark.parametrize("locale", ["en-US", "th-TH", "ko-KR"])
def test_pouring_with_a_token_picked_the_bar_covers_none_of_your_board(  # noqa: ANN001
        new_page, base_url: str, locale: str) -> None:
    """Issue 43: at 360×740 in English, pouring with a token picked and no toast or hint, the
    bar's "Return coffee to the supply", Hint and Undo took two rows: the bar's top (≈555 px)
    reached your own board's "Empty cup N" buttons (bottoms ≈546 px, covered in some runs).
    Now, at every pour step with a token picked and no note, in en, th and ko, no enabled
    control of your own board (cups, Empty cup buttons) lies under the bar, no bar button is
    cut, and the page is not scrolled."""
    lang = locale[:2]
    page = new_page(width=360, height=740, locale=locale)
    hint_room(base_url, page)
    page.wait_for_selector("#game:not([hidden])")
    rng = random.Random(11)
    checked = emptied = 0
    for _ in range(400):
        wait_for(page, MINE, timeout=60_000)
        if phase(page) != "pour":
            click_any(page, rng)
            continue
        make_usable(page)
        if page.locator("#hand .token[aria-pressed=true]").count():
            expect(page.locator("#toast")).to_be_hidden(timeout=8000)
            expect(page.locator("#hint-line")).to_be_hidden()
            page.evaluate("() => scrollTo(0, 0)")
            laid_out(page)
            seen = page.evaluate(OWN_CONTROLS)
            print(f"{lang} pour: bar top {seen['top']}, empty cups' bottoms {seen['empties']}, "
                  f"button rows {seen['rows']}, {seen['buttons']}")
            if seen["empties"] and not emptied:
                screenshot(page, f"phone-pour-360-740-{lang}", full_page=False)
            assert seen["under"] == [], (lang, seen)
            assert page.evaluate(BAR_CUTS) == {"overflow": 0, "cut": []}, (lang, seen)
            assert page.evaluate("scrollY") == 0, lang
            checked += 1
            emptied += bool(seen["empties"])
            if emptied >= 3:
                break
        click_any(page, rng)
    assert checked and emptied, (checked, emptied)


def rival_turn(page: Page, game: Game, rival: Player) -> None:
    """Rival's turn over its socket, short (the first meeple, a step, stop, the rest in
    order), mirrored in `game`; the page then shows it."""
    settled(page)
    while rival.v < int(page.evaluate("document.body.dataset.v")):
        rival.recv()  # Mina's last moves
    while game.current == 1:
        legal = legal_actions(game)
        kinds = [a["type"] for a in legal]
        pick = next((legal[kinds.index(k)] for k in ("stop", "done_pouring", "skip_upgrade",
                                                        "end_turn") if k in kinds), legal[0])
        rival.act(pick)
        apply(game, pick)
    wait_for(page, f"() => Number(document.body.dataset.v) >= {rival.v}")
    settled(page)


def to_a_servable_cup(page: Page, game: Game, rival: Player) -> int:
    """Mina's turns (clicked, chosen by the rules engine to serve: planner.py) and Rival's,
    until Mina has poured a cup that serves an order: the serve step, that cup's number."""
    for _ in range(12):
        if game.current == 1:
            rival_turn(page, game, rival)
            continue
        wait_for(page, MINE, timeout=30_000)
        legal = legal_actions(game)
        if game.phase in ("placement", "starting_cup"):
            act(page, game, legal[0])
            continue
        if legal[-1]["type"] == "skip_upgrade":
            act(page, game, legal[-1])
            legal = legal_actions(game)
        best = None
        for a in legal:  # the meeple whose walk serves, if one does
            trial = game.clone()
            apply(trial, a)
            plan = plan_move(trial, 0)
            if best is None or (plan.cup is not None and best[1].cup is None):
                best = (a, plan)
        assert best is not None
        act(page, game, best[0])
        plan = best[1]
        for step in plan.steps:
            act(page, game, step)
        act(page, game, {"type": "stop"})
        for a in pour_actions(game, plan):
            act(page, game, a)
        if plan.cup is not None:
            return plan.cup
        act(page, game, {"type": "end_turn"})
    raise AssertionError("Mina never had a cup to serve from")


def test_serving_with_the_longest_hint_the_bar_covers_nothing_you_can_use(  # noqa: ANN001
        new_page, base_url: str) -> None:
    """Issue 43: at 360×740, at a serve step where a cup can serve (a pinned game: seed 7,
    each move chosen by the rules engine), the cup picked and the orders it serves lit up,
    with the longest hint line (th, ko, and en): every button of the bar lies whole in the
    bar and the window, clear of the hint's text; the bar covers none of the orders the cup
    serves, nor the cup, nor any enabled control; the page is not scrolled."""
    made = httpx.post(f"{base_url}/api/rooms",
                      json={"players": 2, "hints": True, "starting_player": 0})
    made.raise_for_status()
    code, host = made.json()["code"], made.json()["host_token"]
    _, mine = join(base_url, code, "Mina")
    _, theirs = join(base_url, code, "Rival")
    httpx.post(f"{base_url}/api/rooms/{code}/start", json={"token": host}).raise_for_status()
    rival = Player(base_url.replace("http", "ws", 1) + f"/ws/{code}", theirs)
    room = code.replace("-", "")
    page = new_page(width=360, height=740)
    page.add_init_script(f"localStorage.setItem('cr.seat.{room}', '{mine}')")
    page.goto(f"/r/{room}")
    page.wait_for_selector("#game:not([hidden])")
    game = new_game(SEED, 2, 0, False)
    cup = to_a_servable_cup(page, game, rival)
    assert phase(page) == "process"
    page.evaluate("() => scrollTo(0, 0)")
    page.locator(".hint-btn").click()
    expect(page.locator("#hint-line")).to_be_visible(timeout=30_000)
    served = page.get_by_role("button", name=re.compile(rf"^Serve from cup {cup + 1}"))
    served.click()
    expect(served).to_have_attribute("aria-pressed", "true")
    lit = page.locator(".pboard.is-me .card.target")
    assert lit.count() >= 1
    longest_hint_covers_nothing(page, "serve")
    rival.close()


def longest_hint_covers_nothing(page: Page, step: str) -> None:
    """The longest hint line (three lines and more) shown in th, ko and en at `step`: every
    visible button of the bar whole in the bar and the window, none cut, at least one
    enabled; the bar over none of your cups, orders or enabled controls; page unscrolled."""
    for lang in ("th", "ko", "en"):
        page.evaluate(LONG_HINT, lang)
        page.evaluate("() => scrollTo(0, 0)")
        laid_out(page)
        assert page.evaluate(LINES, "#hint-line") >= 3, lang
        buttons = page.evaluate(BAR_BUTTONS)
        covered = page.evaluate(UNDER_THE_BAR)
        print(f"{step} {lang}: bar top {covered['top']}, over {covered['parts']}, "
              f"targets {page.locator('.target').count()}, "
              f"bar buttons {[b['text'] for b in buttons]}")
        screenshot(page, f"phone-hint-{step}-360-740-{lang}", full_page=False)
        assert [b for b in buttons if b["wrong"]] == [], (lang, buttons)
        assert any(b["enabled"] for b in buttons), (lang, buttons)
        assert page.evaluate(BAR_CUTS) == {"overflow": 0, "cut": []}, lang
        assert covered["usable"] == [] and covered["live"] == [], (lang, covered)
        assert "cups" not in covered["parts"] and "orders" not in covered["parts"], (lang, covered)
        assert page.evaluate("scrollY") == 0, lang


def refusing_game(page: Page, base_url: str) -> dict[str, bool]:
    """`page` seated in a hint room whose socket `refusing` watches: set the returned
    state's "spoil" and the page's next action is swapped for one the rules refuse."""
    state = {"spoil": False}
    page.route_web_socket(re.compile(r"/ws/"), lambda ws: refusing(ws, state))
    hint_room(base_url, page)
    page.wait_for_selector("#game:not([hidden])")
    return state

"""Two players create, join and play a game by clicking; a third browser watches it.

The test keeps a mirror of the game in the rules engine (same seed, same actions) to choose
moves that serve orders; every move is made through the page, by role and name.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from server.rules import Game, apply, legal_actions, new_game

from .geometry import bar_fits_its_content
from .planner import Plan, plan_move, pour_actions
from .ui import (
    board_signature,
    button,
    cell,
    perform,
    same_version,
    save_shot,
    screenshot,
    settled,
)

pytestmark = pytest.mark.browser
SEED = 7  # TEST_FIXED_SEED of the server started by conftest
XSS_NAME = "<img src=x onerror=z()>"


def open_table(alice: Page) -> str:
    alice.goto("/")
    alice.get_by_text("More options").click()
    alice.get_by_label("Starting player").select_option("0")
    alice.get_by_role("button", name="Create table").click()
    alice.wait_for_url(re.compile(r"/r/"))
    alice.get_by_label("Your name").fill("Alice")
    button(alice, "Sit in seat 1").click()
    expect(alice.get_by_text("(you, host)")).to_be_visible()
    return alice.url


def move_turn(page: Page, game: Game, seat: int, *, try_undo: bool = False) -> Plan:
    """One turn that seeks to serve: choose a meeple, walk, pour, serve, end."""
    legal = legal_actions(game)
    if legal[0]["type"] == "upgrade" or legal[-1]["type"] == "skip_upgrade":
        act(page, game, {"type": "skip_upgrade"})
        legal = legal_actions(game)
    if legal[0]["type"] == "choose_meeple":
        best: tuple[dict, Plan] | None = None
        for a in legal:
            trial = game.clone()
            apply(trial, a)
            plan = plan_move(trial, seat)
            if best is None or (plan.cup is not None and best[1].cup is None):
                best = (a, plan)
        assert best is not None
        act(page, game, best[0])
        plan = best[1]
    else:
        plan = plan_move(game, seat)
    for i, step in enumerate(plan.steps):
        # The gain is shown on the cell before clicking.
        gain = next(iter(step["gain"].values()))
        expect(cell(page, step["cell"])).to_contain_text(f"+{gain}")
        act(page, game, step)
        if try_undo and i == 0:
            expect(page.locator(".path-dot")).to_have_count(1)  # the path is drawn, numbered
            act(page, game, {"type": "undo"})
            expect(page.locator(".path-dot")).to_have_count(0)
            act(page, game, step)
    act(page, game, {"type": "stop"})
    for a in pour_actions(game, plan):
        act(page, game, a)
    if plan.cup is not None:
        act(page, game, {"type": "serve", "cup": plan.cup, "card": plan.card})
    act(page, game, {"type": "end_turn"})
    return plan


def act(page: Page, game: Game, action: dict) -> None:
    perform(page, action, game)
    apply(game, action)


def keyboard_until(page: Page, predicate: str, limit: int = 90) -> None:
    """Press Tab until the focused element satisfies a JS predicate on `el`."""
    check = f"(() => {{ const el = document.activeElement; return Boolean({predicate}); }})()"
    for _ in range(limit):
        if page.evaluate(check):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached an element where {predicate}")


def keyboard_turn(page: Page, game: Game) -> None:
    """A whole turn with the keyboard alone: Tab/arrows to move focus, Enter/Space to act."""
    legal = legal_actions(game)
    if legal[0]["type"] == "choose_meeple":
        keyboard_until(page, "el.matches('.cell.legal')")
        page.keyboard.press("Enter")
        apply(game, legal[0] if _focused_cell(page) == _meeple_cell(game, 0) else legal[1])
        settled(page)
    step = next(a for a in legal_actions(game) if a["type"] == "step" and _can_stop_after(game, a))
    keyboard_until(page, "el.matches('.cell')")
    # Arrow keys move around the board to the chosen cell.
    here = _focused_cell(page)
    target = step["cell"]
    for axis, keys in ((1, ("ArrowDown", "ArrowUp")), (3, ("ArrowRight", "ArrowLeft"))):
        while here[axis] != target[axis]:
            page.keyboard.press(keys[0] if target[axis] > here[axis] else keys[1])
            here = _focused_cell(page)
    page.keyboard.press("Enter")
    apply(game, step)
    settled(page)
    keyboard_until(page, "el.textContent === 'Stop here'")
    page.keyboard.press("Space")
    apply(game, {"type": "stop"})
    settled(page)
    while any(a["type"] == "return" for a in legal_actions(game)):
        ret = next(a for a in legal_actions(game) if a["type"] == "return")
        label = f"{ret['ingredient']} ×"
        keyboard_until(page, f"(el.getAttribute('aria-label') || '').startsWith('{label}')")
        if page.evaluate("document.activeElement.getAttribute('aria-pressed')") != "true":
            page.keyboard.press("Enter")
        name = f"Return {ret['ingredient']} to the supply"
        keyboard_until(page, f"el.getAttribute('aria-label') === '{name}'")
        page.keyboard.press("Enter")
        apply(game, ret)
        settled(page)
    keyboard_until(page, "el.textContent === 'Done pouring'")
    page.keyboard.press("Enter")
    apply(game, {"type": "done_pouring"})
    settled(page)
    keyboard_until(page, "el.textContent === 'End turn'")
    page.keyboard.press("Enter")
    apply(game, {"type": "end_turn"})
    settled(page)


def _can_stop_after(game: Game, step: dict) -> bool:
    trial = game.clone()
    apply(trial, step)
    return any(a["type"] == "stop" for a in legal_actions(trial))


def _focused_cell(page: Page) -> str:
    return page.evaluate("document.activeElement.dataset.cell || ''")


def _meeple_cell(game: Game, index: int) -> str:
    c = game.players[game.current].meeples[index]
    return f"r{c // 4 + 1}c{c % 4 + 1}"


def test_two_players_and_a_spectator_play_by_clicking(new_page) -> None:  # noqa: ANN001
    alice = new_page(width=1440)
    url = open_table(alice)
    bob = new_page(width=1024)
    bob.add_init_script("window.z = () => { document.title = 'XSS'; };")
    bob.goto(url)
    bob.get_by_label("Your name").fill(XSS_NAME)
    button(bob, "Sit in seat 2").click()
    watcher = new_page(width=360)
    watcher.add_init_script("window.z = () => { document.title = 'XSS'; };")
    watcher.goto(url)
    expect(watcher.get_by_text("Every seat is taken — you are watching.")).to_be_visible()
    # The hostile name is text, everywhere.
    expect(alice.get_by_text(XSS_NAME).first).to_be_visible()
    button(alice, "Start the game").click()

    game = new_game(SEED, 2, 0, False)
    pages = {0: alice, 1: bob}
    expect(watcher.get_by_text("1 watching")).to_be_visible()
    # Setup: meeple placement and starting cups, by clicking.
    while game.phase in ("placement", "starting_cup"):
        seat = game.current
        act(pages[seat], game, legal_actions(game)[0])
    plans: list[Plan] = []
    turns = 0
    while turns < 4 or not any(p.cup is not None for p in plans):  # two full rounds at least
        seat = game.current
        page = pages[seat]
        expect(page.get_by_text("Your turn", exact=True)).to_be_visible()
        expect(page).to_have_title(re.compile("Your turn"))
        if seat == 1 and turns == 3:
            keyboard_turn(page, game)
        else:
            plan = move_turn(page, game, seat, try_undo=turns == 0)
            if seat == 0:
                plans.append(plan)
        turns += 1
        if turns == 1:
            screenshot(alice, "table-mid-1440-en")
            screenshot(watcher, "table-mid-360-en")
        same_version(page, alice, bob, watcher)
        assert board_signature(watcher) == board_signature(alice) == board_signature(bob)
        if turns == 2:  # a reload mid-game keeps the seat
            alice.reload()
            expect(alice.get_by_role("heading", name="Alice (You)")).to_be_visible()
            board_node = alice.locator('[data-cell="r1c1"]').element_handle()
        assert turns < 12, "Alice never served an order"
    # Alice served at least one order, and everyone saw it.
    served = len(game.players[0].completed)
    assert served >= 1
    for p in (alice, bob, watcher):
        expect(p.locator('.pboard[data-seat="0"] .stat.completed')).to_have_attribute(
            "aria-label", f"Completed orders: {served}")
    # The board's cells are the same DOM nodes after many patches (updated in place).
    assert alice.evaluate("(el) => el.isConnected", board_node)
    # Spectators cannot act: nothing on their board is enabled.
    assert watcher.locator(".cell.legal").count() == 0
    expect(watcher.get_by_text("You are watching this game.")).to_be_visible()
    # A spectator's bar is as tall as what it says, in each language (issue 43: it was a
    # fixed 168 px, mostly blank).
    watcher.set_viewport_size({"width": 360, "height": 740})
    for lang in ("en", "th", "ko"):
        watcher.evaluate("(l) => import('/static/js/lang/i18n.js').then((m) => m.setLang(l))", lang)
        watcher.wait_for_timeout(50)  # a layout frame
        bar_fits_its_content(watcher)
        save_shot(watcher, f"spectator-bar-360-{lang}")
    watcher.evaluate("() => import('/static/js/lang/i18n.js').then((m) => m.setLang('en'))")
    # The log tells the story in sentences; the hostile name stayed text.
    expect(alice.get_by_text(re.compile(r"^Alice served "))).to_be_visible()
    for p in (alice, bob, watcher):
        assert p.locator("img").count() == 0
        assert p.title() != "XSS"

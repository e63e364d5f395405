"""Hints in Chromium (issue 27): in a room whose host allowed hints, the seated player whose
turn it is presses "Hint" (from the keyboard), the expert's move is outlined on the table
(the path's cells: R-MOVE) with one line of why, in the player's language, and the outline
goes once they act. Motion is off for a reader who prefers less. The replay says each
hint given, and outlines it at the step where it was given."""

from __future__ import annotations

import json
import random

import httpx
import pytest
from playwright.sync_api import Page, expect

from server.bots import greedy, hint
from server.history.document import FORMAT
from server.rules import MOVE, OVER, RULES_VERSION, apply, new_game, view

from .players import join
from .ui import CANDIDATES, no_sideways_scroll, screenshot, settled, wait_for

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
BOX = """(cell) => { const r = document.querySelector(`#board [data-cell="${cell}"]`)
  .getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; }"""


def hint_room(base_url: str, page: Page) -> None:
    """A 2-player room allowing hints, made over HTTP: `page` in seat 0 (who starts), a
    random bot in seat 1."""
    made = httpx.post(f"{base_url}/api/rooms",
                      json={"players": 2, "hints": True, "starting_player": 0})
    made.raise_for_status()
    code, host = made.json()["code"], made.json()["host_token"]
    _, token = join(base_url, code, "Mina")
    httpx.post(f"{base_url}/api/rooms/{code}/bot",
               json={"token": host, "seat": 1, "level": "random"}).raise_for_status()
    httpx.post(f"{base_url}/api/rooms/{code}/start", json={"token": host}).raise_for_status()
    room = code.replace("-", "")
    page.add_init_script(f"localStorage.setItem('cr.seat.{room}', '{token}')")
    page.goto(f"/r/{room}")


def test_a_hint_outlines_the_experts_move_and_says_why(new_page, base_url: str) -> None:  # noqa: ANN001
    page = new_page(width=1440, height=900)
    hints: list[dict] = []
    page.on("websocket", lambda ws: ws.on(
        "framereceived", lambda payload: hints.append(json.loads(payload))
        if isinstance(payload, str) and payload.startswith('{"type":"hint"') else None))
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
    for o in outlined:
        assert o["outline"] == "dashed" and o["animation"] == "none"  # reduced motion
    line = page.locator("#hint-line").text_content() or ""
    end = path[-1].upper()
    assert line.startswith("Expert's hint: Move to ") and f"({end})" in line, line
    screenshot(page, "hint-1440-en")
    page.evaluate("() => import('/static/js/lang/i18n.js').then((m) => m.setLang('th'))")
    expect(page.locator("#hint-line")).to_contain_text("คำใบ้จากผู้เชี่ยวชาญ: เดินไปที่")
    expect(page.locator("#hint-line")).to_contain_text(f"({end})")
    expect(ask).to_have_text("คำใบ้")
    page.set_viewport_size({"width": 360, "height": 800})  # a phone: the line fits, wrapped
    wait_for(page, "document.scrollingElement.scrollWidth <= 360", timeout=3000)  # re-laid out
    no_sideways_scroll(page)
    expect(page.locator("#hint-line")).to_be_in_viewport()
    screenshot(page, "hint-360-th")

    page.locator(f'[data-cand="{rng.randrange(page.evaluate(CANDIDATES))}"]').click()
    settled(page)
    expect(page.locator("#hint-line")).to_be_hidden()  # acted: the hint is spent
    assert page.evaluate(OUTLINED) == []


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
    expect(line).to_contain_text("Hint for Mina: Move to ")
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

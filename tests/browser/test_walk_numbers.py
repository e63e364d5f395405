"""A walk that comes back to a cell (R-MOVE: a path may revisit cells): the cell's number
says every step that ended there ("1·3"), on the walked path and on a hinted one alike, and
sits inside its cell (issue 43: the walk showed "2" and "3", no "1", having come back); a
hinted walk's number on a cell already walked onto sits beside the walk's, not under it."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Page, expect

from .geometry import STEP_NUMBER_OVERLAPS as OVERLAPS
from .test_hint import MINE, hint_room, inside
from .ui import CANDIDATES, screenshot, settled, wait_for

pytestmark = pytest.mark.browser

WALKED = """() => [...document.querySelectorAll('#board .path-dot')]
  .map((d) => [d.dataset.stepCell, d.textContent])"""
HINTED = """() => [...document.querySelectorAll('#board .hint-path-dot')]
  .map((d) => [d.dataset.stepCell, d.textContent])"""
# Each number's box and its cell's box, by the number's class.
BOXES = """(sel) => [...document.querySelectorAll(sel)].map((d) => {
  const r = d.getBoundingClientRect();
  const c = document.querySelector(`#board [data-cell="${d.dataset.stepCell}"]`)
    .getBoundingClientRect();
  return [d.dataset.stepCell, [r.x, r.y, r.width, r.height], [c.x, c.y, c.width, c.height]]; })"""
# The cell the walk started from: the first point of the walked line (a cell's centre in the
# board's 400×400 drawing).
START = """() => { const [x, y] = document.querySelector('.path-line')
  .getAttribute('points').split(' ')[0].split(',').map(Number);
  return `r${y / 100 + 0.5}c${x / 100 + 0.5}`; }"""
LEGAL = "() => [...document.querySelectorAll('#board .cell.legal')].map((c) => c.dataset.cell)"
HINT_A_WALK = """async ([cells, walked]) => {
  const { showTargets } = await import('/static/js/table/hint.js');
  const view = walked && { game: { move: { meeple: 0, path: walked } } };
  showTargets({ action: { type: 'step', cell: cells[0] }, path: cells,
                first: walked ? walked.length - 1 : 0, view }, 0); }"""


def step(page: Page, cell: str) -> None:
    page.locator(f'#board [data-cell="{cell}"]').click()
    settled(page)


def undo(page: Page) -> None:
    page.locator("#undo-btn").click()
    settled(page)


def out_back_and_out(page: Page, meeple: str) -> tuple[str, str] | None:
    """Choose the meeple on `meeple`, then walk out to a neighbour, back to the start and out
    to the same neighbour again: three steps (R-MOVE), ending on a cell free of other meeples
    (R-MOVE-DEADEND). The start and the neighbour, or None (the meeple chosen, no step taken)
    if no neighbour will do."""
    step(page, meeple)
    start = page.evaluate(START)
    for there in page.evaluate(LEGAL):
        step(page, there)
        step(page, start)
        if there in page.evaluate(LEGAL):
            step(page, there)
            return start, there
        undo(page)
        undo(page)
    return None


def numbers_inside_cells(page: Page, sel: str) -> None:
    for cell, box, cell_box in page.evaluate(BOXES, sel):
        assert inside(box, cell_box), (sel, cell, box, cell_box)


@pytest.mark.parametrize(("width", "height", "locale"),
                         [(360, 740, "th-TH"), (1366, 768, "ko-KR"), (1440, 900, "en-US")])
def test_a_cell_walked_onto_twice_shows_both_step_numbers(  # noqa: ANN001
        new_page, base_url: str, width: int, height: int, locale: str) -> None:
    page = new_page(width=width, height=height, locale=locale)
    hint_room(base_url, page)
    page.wait_for_selector("#game:not([hidden])")
    rng = random.Random(8)
    for _ in range(40):  # placement and the starting cup, at random, up to the first move
        wait_for(page, MINE)
        if page.evaluate("document.getElementById('table-root').classList.contains('phase-move')"):
            break
        page.locator(f'[data-cand="{rng.randrange(page.evaluate(CANDIDATES))}"]').click()
        settled(page)
    else:
        raise AssertionError("never reached the first move")
    # 2 players: either meeple may move; the deal is random, so one may stand where no
    # neighbour is free to end on (both held by other meeples).
    for meeple in page.evaluate(LEGAL):
        walk = out_back_and_out(page, meeple)
        if walk:
            start, there = walk
            break
        undo(page)  # the meeple chosen
    else:
        raise AssertionError("no meeple with a neighbour to walk to twice")
    assert page.evaluate(WALKED) == [[there, "1·3"], [start, "2"]]
    numbers_inside_cells(page, "#board .path-dot")
    screenshot(page, f"walk-revisit-{width}-{locale[:2]}", full_page=False)
    # A hinted walk that comes back is numbered the same way (drawn here as the table draws
    # the expert's answer).
    page.evaluate(HINT_A_WALK, [[start, there, start, there, start], None])
    assert page.evaluate(HINTED) == [[start, "1·3·5"], [there, "2·4"]]
    numbers_inside_cells(page, "#board .hint-path-dot")
    expect(page.locator("#board .hint-path-dot")).to_have_count(2)
    # A hint that walks on over the cells walked so far: its numbers sit beside the walk's
    # own on those cells, not under them (the walk's "2" hid the hint's "4").
    page.evaluate(HINT_A_WALK, [[start, there], [start, there, start, there]])
    assert page.evaluate(HINTED) == [[start, "4"], [there, "5"]]
    assert page.evaluate(OVERLAPS) == []
    numbers_inside_cells(page, "#board .path-dot, #board .hint-path-dot")
    screenshot(page, f"walk-revisit-hinted-{width}-{locale[:2]}", full_page=False)

"""Out of turn (issue 26): a click on the board while another player is to act says, quietly,
whose turn it is: a polite status on the board's bottom edge, covering no cell (issue 43;
never an alert), in the player's language;
nothing is sent and nothing moves."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Page

from .geometry import bar_fits_its_content
from .test_full_games import CANDIDATES, finish, seat_in_new_game
from .ui import ARTIFACTS, BOARD_SIGNATURE, settled, wait_for

pytestmark = pytest.mark.browser

SETTLED = """() => document.body.dataset.busy === '0' && !document.getElementById('game').hidden"""
MINE = "document.getElementById('table-root').classList.contains('my-turn')"
WORDS = {"en-US": "Not your turn yet", "th-TH": "ยังไม่ถึงตาคุณ", "ko-KR": "아직 내 차례가 아니에요"}


def note(page: Page) -> dict:
    return page.evaluate("""() => { const n = document.getElementById('board-note');
      const r = n.getBoundingClientRect();
      const b = document.getElementById('board').getBoundingClientRect();
      return {shown: !n.hidden, text: n.textContent, role: n.getAttribute('role'),
              inside: r.left >= b.left && r.right <= b.right && r.top >= b.top - 1
                && r.bottom <= innerHeight + document.scrollingElement.scrollTop,
              covers: [...document.querySelectorAll('#board .cell')].filter((c) => {
                const q = c.getBoundingClientRect();
                return r.left < q.right && q.left < r.right && r.top < q.bottom && q.top < r.bottom;
              }).map((c) => c.dataset.cell),
              status: document.getElementById('status').textContent,
              toast: !document.getElementById('toast').hidden}; }""")


@pytest.mark.parametrize(("width", "height", "locale"),
                         [(1366, 768, "en-US"), (360, 740, "th-TH"), (1440, 900, "ko-KR")])
def test_a_click_out_of_turn_says_whose_turn_it_is(new_page, base_url: str, width: int,
                                                   height: int, locale: str) -> None:  # noqa: ANN001
    page = new_page(width=width, height=height, locale=locale)
    # The other seats take their time, so that there is a moment that is theirs.
    bots = seat_in_new_game(page, base_url, 3, "Mochaccino Maximilian", delay=1.5)
    page.wait_for_selector("#game:not([hidden])")
    got: dict = {}
    rng = random.Random(5)
    for _ in range(60):
        wait_for(page, SETTLED, timeout=30_000)
        if page.evaluate(MINE):  # play your own turn on, at random
            count = page.evaluate(CANDIDATES)
            page.locator(f'[data-cand="{rng.randrange(count)}"]').click()
            settled(page)
            continue
        # In one evaluation: a patch arriving between two would pair an old table with
        # the new version.
        before, v = page.evaluate(f"() => [({BOARD_SIGNATURE})(), document.body.dataset.v]")
        page.evaluate("document.querySelector('#board .cell[data-cell=\"r2c2\"]').click()")
        got = note(page)
        page.wait_for_timeout(300)  # a refusal or a sent action would show by now
        after, now = page.evaluate(f"() => [({BOARD_SIGNATURE})(), document.body.dataset.v]")
        if got["shown"] and now == v:  # nobody else moved meanwhile
            assert after == before, "a click out of turn changed the table"
            assert page.locator("#toast").is_hidden(), "a click out of turn raised an alert"
            break
    assert got.get("shown"), "no word on a click out of turn"
    assert got["text"].startswith(WORDS[locale]) and "Rowan" in got["text"], got
    assert got["role"] == "status" and not got["toast"], "said as an alert, not quietly"
    assert got["inside"], "the note spills off the board's width"
    assert got["covers"] == [], f"the note covers cells of the board: {got['covers']}"  # issue 43
    bar_fits_its_content(page)  # another's turn: the bar is as tall as what it says
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"out-of-turn-{width}-{locale[:2]}.png"))
    for b in bots:
        b.done.set()
    finish(bots)

"""Out of turn (issue 26): a click on the board while another player is to act says, quietly,
that it is not your turn yet: a polite status in the action bar, in the prompt's place for a
moment (issue 43: on the board's edge it covered your own board's name row and orders on a
phone; now it covers nothing the bar did not, and nothing in the bar), in the player's
language (never an alert); nothing is sent and nothing moves. The bar, in another's turn,
says whose turn it is once (issue 43: "Rowan 2's turn — placing meeples · Rowan 2 is placing
meeples.")."""

from __future__ import annotations

import random
import re

import pytest

from .geometry import bar_fits_its_content
from .test_full_games import CANDIDATES, finish, seat_in_new_game
from .ui import BOARD_SIGNATURE, save_shot, settled, wait_for

pytestmark = pytest.mark.browser

SETTLED = """() => document.body.dataset.busy === '0' && !document.getElementById('game').hidden"""
MINE = "document.getElementById('table-root').classList.contains('my-turn')"
WORDS = {"en-US": "Not your turn yet.", "th-TH": "ยังไม่ถึงตาคุณ", "ko-KR": "아직 내 차례가 아니에요."}
PROMPT = {"en-US": "Waiting for your turn.", "th-TH": "รอถึงตาของคุณ",
          "ko-KR": "내 차례를 기다리는 중이에요."}


# A click on the board out of turn, and in the same moment (a patch arriving between two
# evaluations would change the bar) what the bar said before it and where the note lies.
CLICK_OUT_OF_TURN = """() => { const bar = document.getElementById('actionbar');
  const said = [document.getElementById('status').textContent,
                document.getElementById('prompt').textContent];
  const before = bar.getBoundingClientRect();
  document.querySelector('#board .cell[data-cell="r2c2"]').click();
  // The note: the quiet status the click showed (wherever the table puts it).
  const n = [...document.querySelectorAll('[role=status]')]
    .find((e) => e.id !== 'hint-line' && e.checkVisibility() && e.textContent.trim());
  const after = bar.getBoundingClientRect();
  if (!n) return {shown: false, said, toast: !document.getElementById('toast').hidden};
  const rects = [...n.getClientRects()];
  const meets = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
    && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const within = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5
    && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
  const box = (r) => [r.left, r.top, r.right, r.bottom].map(Math.round);
  const over = (e) => [...e.getClientRects()].some((r) => rects.some((q) => meets(r, q)));
  return {shown: !n.hidden && rects.length > 0, text: n.textContent, role: n.getAttribute('role'),
          said, bar: [box(before), box(after)],
          inBar: rects.length > 0 && rects.every((q) => within(q, after)),
          inWindow: rects.every((q) => within(q, {left: 0, top: 0, right: innerWidth,
                                                  bottom: innerHeight})),
          // In the bar, what the note lies over (the note, its text and the bar that holds
          // it aside); out of it, the cells of the board.
          covers: [...bar.querySelectorAll('*')].filter((e) => e !== n && !e.contains(n)
              && !n.contains(e) && e.checkVisibility() && over(e))
            .map((e) => e.id || e.className || e.tagName)
            .concat([...document.querySelectorAll('#board .cell')].filter(over)
              .map((c) => c.dataset.cell)),
          toast: !document.getElementById('toast').hidden}; }"""


@pytest.mark.parametrize(("width", "height", "locale"),
                         [(360, 740, "en-US"), (360, 740, "th-TH"), (360, 740, "ko-KR"),
                          (1366, 768, "en-US"), (1440, 900, "ko-KR")])
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
        got = page.evaluate(CLICK_OUT_OF_TURN)
        if got["shown"]:
            save_shot(page, f"out-of-turn-{width}-{locale[:2]}")
        page.wait_for_timeout(300)  # a refusal or a sent action would show by now
        after, now = page.evaluate(f"() => [({BOARD_SIGNATURE})(), document.body.dataset.v]")
        if got["shown"] and now == v:  # nobody else moved meanwhile
            assert after == before, "a click out of turn changed the table"
            assert page.locator("#toast").is_hidden(), "a click out of turn raised an alert"
            break
    assert got.get("shown"), "no word on a click out of turn"
    # Issue 43: it covers nothing. It lies in the bar, which it did not grow (so it covers
    # nothing of the page the bar did not already), over nothing else of the bar, on screen.
    assert got["inBar"] and got["inWindow"], got
    assert got["bar"][0] == got["bar"][1], f"the note moved or grew the bar: {got['bar']}"
    assert got["covers"] == [], f"the note covers {got['covers']}"
    # Issue 43: whose turn it is, and what they do, said once (not "Rowan 2's turn — placing
    # meeples · Rowan 2 is placing meeples.").
    status, prompt = got["said"]
    name = re.search(r"Rowan \d", status)
    assert name and "Rowan" not in prompt, got["said"]
    doing = status.split(" — ")[-1]
    assert doing != status and doing not in prompt, got["said"]
    assert prompt == PROMPT[locale], got["said"]
    assert got["text"] == WORDS[locale], got
    assert got["role"] == "status" and not got["toast"], "said as an alert, not quietly"
    bar_fits_its_content(page)  # another's turn: the bar is as tall as what it says
    for b in bots:
        b.done.set()
    finish(bots)

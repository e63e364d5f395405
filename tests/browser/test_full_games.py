"""Whole games to the final scoreboard: the browser seat clicks random legal controls, the
other seats are random websocket players."""

from __future__ import annotations

import random
import re

import httpx
import pytest
from playwright.sync_api import Page, expect

from .geometry import bar_fits_its_content, thai_breaks_between_words, words_whole
from .players import RandomPlayer, join
from .ui import CANDIDATES, button, no_sideways_scroll, save_shot, screenshot, settled, wait_for

pytestmark = pytest.mark.browser

MY_TURN_OR_OVER = """() => document.body.dataset.busy === '0' &&
  (document.getElementById('table-root').classList.contains('my-turn') ||
   !document.getElementById('final').hidden)"""


def play_randomly(page: Page, seed: int, on_click: object = None) -> int:
    rng = random.Random(seed)
    clicks = 0
    while True:
        wait_for(page, MY_TURN_OR_OVER, timeout=60_000)
        if page.locator("#final").is_visible():
            return clicks
        count = page.evaluate(CANDIDATES)
        assert count > 0, "my turn, yet nothing to click"
        page.locator(f'[data-cand="{rng.randrange(count)}"]').click()
        settled(page)
        clicks += 1
        if callable(on_click):
            on_click(clicks)
        assert clicks < 1500, "the game did not end"


def start_game(page: Page, base_url: str, players: int, locale_name: str) -> list[RandomPlayer]:
    page.goto("/")
    page.locator("label.pill").filter(has_text=str(players)).click()
    page.locator("#create-form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/r/"))
    page.locator("#player-name").fill(locale_name)
    page.locator(".seat-ctrls .btn.primary").first.click()
    expect(page.locator(".start-btn")).to_be_visible()
    code = page.url.rsplit("/", 1)[1]
    bots = []
    for k in range(1, players):
        _, token = join(base_url, code, f"Rowan {k}")
        bots.append(RandomPlayer(base_url, code, token, seed=100 + k))
    for b in bots:
        b.start()
    expect(page.locator(".start-btn")).to_be_enabled()
    page.locator(".start-btn").click()
    return bots


def seat_in_new_game(page: Page, base_url: str, players: int, name: str,
                     delay: float = 0, bot_names: list[str] | None = None) -> list[RandomPlayer]:
    """As start_game, made over HTTP: `page` opens the started table in the first seat (the
    host's). For tests about the table rather than the lobby, which start_game's tests cover:
    one page load instead of three, and no form to fill. The bots are "Rowan 1", "Rowan 2"...
    unless `bot_names` names them."""
    made = httpx.post(f"{base_url}/api/rooms", json={"players": players})
    made.raise_for_status()
    code, host = made.json()["code"], made.json()["host_token"]
    _, token = join(base_url, code, name)
    names = bot_names or [f"Rowan {k}" for k in range(1, players)]
    bots = [RandomPlayer(base_url, code, join(base_url, code, names[k - 1])[1], seed=100 + k,
                         delay=delay) for k in range(1, players)]
    for b in bots:
        b.start()
    httpx.post(f"{base_url}/api/rooms/{code}/start", json={"token": host}).raise_for_status()
    room = code.replace("-", "")
    page.add_init_script(f"localStorage.setItem('cr.seat.{room}', '{token}')")
    page.goto(f"/r/{room}")
    return bots


def finish(bots: list[RandomPlayer]) -> None:
    for b in bots:
        b.done.wait(timeout=30)
        assert b.failure is None, b.failure


# The result's parts that must be in the window when the game ends: the winner, the scores'
# table's top and Play again; and whether Play again sits beside the winner (same row).
RESULT_IN_VIEW = """() => {
  const box = (sel) => document.querySelector(sel).getBoundingClientRect();
  const inside = (r) => r.top >= 0 && r.bottom <= innerHeight
    && r.left >= 0 && r.right <= innerWidth;
  const cheer = box('#final .celebrate'), again = box('#final .end-actions .btn.primary');
  return {cheer: inside(cheer), again: inside(again),
          scores: box('#final .scores').top < innerHeight,
          beside: again.top < cheer.bottom && again.left >= cheer.right};
}"""


def final_in_view_everywhere(page: Page, lang: str) -> None:
    """Issue 43, in `lang`: at the top of the page, the winner and Play again are in the window
    at each size (beside each other on a desktop), the bar is as tall as what it says, and no
    seed is shown (it is the replay's detail)."""
    for width, height in ((360, 740), (1366, 768), (1440, 900)):
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(50)  # a layout frame for the new size
        shown = page.evaluate(RESULT_IN_VIEW)
        assert shown["cheer"] and shown["again"] and shown["scores"], (lang, width, shown)
        assert width < 600 or shown["beside"], (lang, width, shown)
        bar_fits_its_content(page)
        expect(page.locator("#final .seed")).to_have_count(0)
        assert not re.search(r"\d{12}", page.locator("#final").inner_text()), lang  # a seed
        screenshot(page, f"final-top-{width}-{lang}", full_page=False)


def test_two_player_game_to_the_final_scoreboard(new_page, base_url: str) -> None:  # noqa: ANN001
    # On a phone, the player scrolled to the bottom of the page before each of their moves:
    # when the game ends, the result comes on screen all the same (issue 43).
    page = new_page(width=360, height=740)
    bots = start_game(page, base_url, 2, "Mina")
    play_randomly(page, seed=1, on_click=lambda _: page.evaluate(
        "document.getElementById('final').hidden"
        " && window.scrollTo(0, document.scrollingElement.scrollHeight)"))
    finish(bots)
    expect(page.get_by_role("heading", name="Final scores")).to_be_visible()
    assert page.evaluate("scrollY") > 0, "the page was not scrolled at the end"
    shown = page.evaluate(RESULT_IN_VIEW)
    assert shown["cheer"] and shown["again"] and shown["scores"], shown
    bar_fits_its_content(page)  # "The game is over.": one line, not 168 px
    save_shot(page, "final-ends-360-en")
    # On a desktop the way on sits beside the winner, above the fold.
    for width, height in ((1440, 900), (1366, 768)):
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("window.scrollTo(0, 0)")
        shown = page.evaluate(RESULT_IN_VIEW)
        assert shown["cheer"] and shown["again"] and shown["beside"], (width, shown)
    page.set_viewport_size({"width": 1440, "height": 900})
    table = page.get_by_role("table")
    expect(table.get_by_role("row")).to_have_count(3)
    expect(table.get_by_role("rowheader", name=re.compile("Mina"))).to_be_visible()
    expect(page.get_by_role("figure", name="Points per player")).to_be_visible()
    expect(button(page, "Play again")).to_be_visible()
    expect(page.locator("#final .seed")).to_have_count(0)  # the seed is the replay's detail
    expect(page.locator("#final")).not_to_contain_text("null")
    screenshot(page, "final-1440-en")
    page.set_viewport_size({"width": 360, "height": 800})
    no_sideways_scroll(page)
    screenshot(page, "final-360-en")
    for lang, name, heading in (("ko", "한국어", "최종 점수"), ("th", "ไทย", "คะแนนสุดท้าย")):
        page.set_viewport_size({"width": 360, "height": 800})
        page.get_by_role("button", name=name).click()
        expect(page.get_by_role("heading", name=heading)).to_be_visible()
        no_sideways_scroll(page)
        final_in_view_everywhere(page, lang)
        page.set_viewport_size({"width": 360, "height": 800})
        screenshot(page, f"final-360-{lang}")
    # Thai words stay whole on a phone's final table (issue 43), and the Rush column is Thai.
    assert words_whole(page, ".final", ("ออเดอร์", "อัปเกรด", "บทลงโทษ", "โทเคนรัช")) >= 4
    thai_breaks_between_words(page)
    expect(page.locator(".scores thead")).not_to_contain_text("Rush")
    page.set_viewport_size({"width": 1440, "height": 900})
    screenshot(page, "final-1440-th")
    # "Play again" opens a new table with the same options.
    old_url = page.url
    page.get_by_role("button", name="เล่นอีกครั้ง").click()
    page.wait_for_url(lambda url: url != old_url and "/r/" in url)
    expect(page.get_by_role("heading", name="รอผู้เล่น")).to_be_visible()
    # One link format everywhere (issue 26): the address and the link to share are the
    # room's code as shown, with its dash, whichever way the table was reached.
    assert re.search(r"/r/[A-Z0-9]{4}-[A-Z0-9]{4}$", page.url), page.url
    assert page.locator("#share-link").input_value() == page.url


def test_four_player_game_in_thai_to_the_final_scoreboard(new_page, base_url: str) -> None:  # noqa: ANN001
    page = new_page(width=1440, locale="th-TH")
    bots = start_game(page, base_url, 4, "สมชาย")
    shots: dict[str, bool] = {}

    def mid_game(clicks: int) -> None:
        if clicks == 12 and not shots:
            shots["done"] = True
            screenshot(page, "table-mid-1440-th")
            page.set_viewport_size({"width": 360, "height": 800})
            no_sideways_scroll(page)
            screenshot(page, "table-mid-360-th")
            page.set_viewport_size({"width": 1440, "height": 900})

    play_randomly(page, seed=2, on_click=mid_game)
    finish(bots)
    expect(page.get_by_role("heading", name="คะแนนสุดท้าย")).to_be_visible()
    expect(page.get_by_role("table").get_by_role("row")).to_have_count(5)
    assert shots, "the game ended before the mid-game screenshots"

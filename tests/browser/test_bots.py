"""A person alone with bots: open the lobby, create a 4-player table, seat three bots, start,
and play (random legal clicks) to the final scoreboard while the server's bots play theirs."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.serving import served

from .geometry import covered_by, outside_window
from .test_full_games import play_randomly
from .ui import button, screenshot

pytestmark = pytest.mark.browser

# The replay on a phone: its step controls and the whole board, in the window unscrolled.
REPLAY_PARTS = {"#rp-back": "step back", "#rp-play": "play", "#rp-forward": "step forward",
                "#board": "board"}

# The replay's header chip at its first step, and what it would say for a game going on.
REPLAY_CHIP = """async () => {
  const { t } = await import('/static/js/lang/i18n.js');
  return {shown: document.querySelector('#token-state .token-words').textContent,
          replay: t('hdr.replay'), open: t('hdr.open')}; }"""


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Like the package's server, with quick bots: a short delay and thinking budget."""
    database = tmp_path_factory.mktemp("bots-db") / "bots.db"
    with served(database, TEST_FIXED_SEED="7", BOT_DELAY="0.02", BOT_BUDGET="0.05",
                BOT_WORKERS="1") as url:
        yield url


def test_a_person_plays_three_bots_to_the_final_scoreboard(new_page) -> None:  # noqa: ANN001
    page = new_page(width=1280)
    page.goto("/")
    page.get_by_role("radio", name="4").check()
    button(page, "Create table").click()
    page.wait_for_url(re.compile(r"/r/"))
    page.get_by_label("Your name").fill("Mina")
    button(page, "Sit in seat 1").click()
    expect(page.get_by_text("(you, host)")).to_be_visible()
    for seat, level in ((2, "random"), (3, "greedy"), (4, "strong")):
        page.get_by_label(f"Bot strength for seat {seat}").select_option(level)
        button(page, f"Add a bot to seat {seat}").click()
        expect(page.locator(".seat-name").filter(has_text=f"Bot {'ABCD'[seat - 1]} ({level})")
               ).to_be_visible()
    button(page, "Start the game").click()
    # The bots' panels name them; nobody is away, so no bot plays for anyone.
    expect(page.locator(".pboard .pname").filter(has_text="Bot D (strong)")).to_be_visible()
    expect(page.locator(".pboard .standin:not(:empty)")).to_have_count(0)
    clicks = play_randomly(page, seed=3)
    assert clicks > 0
    expect(page.get_by_role("heading", name="Final scores")).to_be_visible()
    expect(page.get_by_role("table").get_by_role("row")).to_have_count(5)
    # Issue 26: the chart names everyone in full, and the replay is one click away.
    names = ["Mina (you)", "Bot B (random)", "Bot C (greedy)", "Bot D (strong)"]
    shown = page.locator(".chart .chart-name").all_inner_texts()
    for name in names[1:]:
        assert any(name in s for s in shown), (name, shown)
    for row in page.locator(".chart .chart-row").all():
        label = row.locator(".chart-name").bounding_box()
        bars = row.locator(".chart-bars").bounding_box()
        assert label and bars and label["y"] + label["height"] <= bars["y"] + 1  # name, then bar
    # The zero line is at the same place in every row.
    zero = {round(box["x"] + box["width"]) for box in
            (n.bounding_box() for n in page.locator(".chart .chart-neg").all()) if box}
    assert len(zero) == 1, zero
    screenshot(page, "final-bots-1280-en")
    page.get_by_role("link", name="Watch the replay").click()
    page.wait_for_url(re.compile(r"/games/\d+"))
    expect(page.locator("#rp-forward")).to_be_visible()
    # Issue 43: on a phone (and on the desktops) the replay's controls and the table's bar
    # leave the board in view, and its header chip says a finished game is replayed, never
    # that the game goes on.
    for lang, name in (("en", "English"), ("th", "ไทย"), ("ko", "한국어")):
        page.get_by_role("button", name=name).click()
        chip = page.evaluate(REPLAY_CHIP)
        assert chip["shown"] == chip["replay"] != chip["open"], (lang, chip)
        for width, height in ((360, 740), (1366, 768), (1440, 900)):
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate("window.scrollTo(0, 0)")
            page.wait_for_timeout(50)  # a layout frame
            bad = outside_window(page, REPLAY_PARTS)
            assert not bad, (width, lang, bad)
            assert not covered_by(page, "#actionbar", ("#board",)), (width, "the bar covers it")
            screenshot(page, f"replay-{width}-{lang}", full_page=False)

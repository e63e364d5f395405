"""The Starting Player Token in the header says what it means (issue 26): "Game goes on" or
"Last round" in the player's language, never OPEN/CLOSED, and it does not look like a button
(no pill, no pointer, not focusable); the longer explanation is its title. It fits the
one-row phone header in every language."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from .geometry import header_one_row
from .test_full_games import finish, seat_in_new_game
from .ui import screenshot

pytestmark = pytest.mark.browser

WORDS = {"en-US": ("Game goes on", "Last round"), "th-TH": ("เกมยังไม่จบ", "รอบสุดท้าย"),
         "ko-KR": ("게임 진행 중", "마지막 라운드")}
CRYPTIC = {"OPEN", "CLOSED", "เปิด", "ปิด", "열림", "닫힘"}

LOOK = """() => {
  const e = document.getElementById('token-state'), s = getComputedStyle(e);
  const ico = e.querySelector('.token-ico');
  return {text: e.textContent.trim(), title: e.getAttribute('title'), bg: s.backgroundColor,
          cursor: s.cursor, tag: e.tagName, role: e.getAttribute('role'), tabindex: e.tabIndex,
          border: s.borderTopWidth, icon: ico ? ico.getBoundingClientRect().width : 0,
          clipped: e.scrollWidth > e.clientWidth + 1};
}"""

# Set and measured in one go: a bot's move re-renders the header between two evaluates.
TOO_LONG = """() => {
  document.querySelector('#token-state .token-words').textContent = 'Game over '.repeat(6);
  document.querySelector('#watchers .short').textContent = '12345';
  return {right: document.getElementById('lang-switch').getBoundingClientRect().right,
          scroll: document.scrollingElement.scrollWidth, width: innerWidth};
}"""


def look(page: Page) -> dict:
    return page.evaluate(LOOK)


@pytest.mark.parametrize("locale", ["en-US", "th-TH", "ko-KR"])
def test_token_chip_says_what_it_means(new_page, base_url: str, locale: str) -> None:  # noqa: ANN001
    page = new_page(width=1366, height=768, locale=locale)
    bots = seat_in_new_game(page, base_url, 3, "Chayanee Srisuwan")
    page.wait_for_selector("#game:not([hidden])")
    going_on, last = WORDS[locale]
    for width, height in ((1366, 768), (360, 740)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(50)
        got = look(page)
        assert got["text"] == going_on and got["text"] not in CRYPTIC, got
        assert got["title"] and len(got["title"]) > len(going_on) + 10, "no explanation"
        assert got["tag"] == "SPAN" and got["role"] != "button" and got["tabindex"] < 0, got
        assert got["cursor"] != "pointer", got
        assert got["bg"] in ("rgba(0, 0, 0, 0)", "transparent"), f"open looks like a pill: {got}"
        assert not got["clipped"], f"the words do not fit at {width}px: {got}"
        if width < 600:
            header_one_row(page)
        screenshot(page, f"token-open-{width}-{locale[:2]}", full_page=False)
    # The last round: the same place, now a warm flag with an hourglass (shown here by the
    # class the view sets when the token is CLOSED; the words come from the same table).
    page.evaluate("""() => { const e = document.getElementById('token-state');
      e.classList.add('closed'); }""")
    got = look(page)
    assert got["bg"] not in ("rgba(0, 0, 0, 0)", "transparent") and got["icon"] >= 12, got
    closed_words = page.evaluate(
        """async () => (await import('/static/js/lang/i18n.js')).t('hdr.closed')""")
    assert closed_words == last
    # Words longer than the row has room for (the game is over, many watchers, a font still
    # loading) give way inside the chip: the language buttons stay in the window.
    page.set_viewport_size({"width": 360, "height": 740})
    got = page.evaluate(TOO_LONG)
    assert got["right"] <= got["width"] + 0.5 and got["scroll"] <= got["width"], got
    header_one_row(page)
    for b in bots:
        b.done.set()
    finish(bots)

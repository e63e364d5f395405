"""Quick reactions are our own SVG drawings (issue 26): no emoji anywhere in the dock, so a
machine without a colour-emoji font shows them too; each has a name in every language."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from server.rooms.chat import REACTIONS

from .test_full_games import finish, seat_in_new_game
from .ui import screenshot

pytestmark = pytest.mark.browser

NAMES = {"en-US": "good game", "th-TH": "เกมดี", "ko-KR": "좋은 게임"}

# Each reaction button: its text (none), the symbol it draws and whether that symbol has shapes.
BUTTONS = """() => [...document.querySelectorAll('#talk .reaction')].map(b => {
  const use = b.querySelector('svg use');
  const id = use ? use.getAttribute('href').slice(1) : null;
  const symbol = id && document.getElementById(id);
  const r = b.querySelector('svg') ? b.querySelector('svg').getBoundingClientRect() : {width: 0};
  return {reaction: b.dataset.reaction, text: b.textContent.trim(),
          label: b.getAttribute('aria-label'), size: r.width,
          drawn: Boolean(symbol && symbol.children.length)};
})"""

# Pictographs a text font cannot draw (emoji blocks, dingbats, misc symbols).
EMOJI = r"/[\u2600-\u27BF\u{1F000}-\u{1FAFF}]/u"


@pytest.mark.parametrize("locale", ["en-US", "th-TH", "ko-KR"])
def test_reactions_are_drawn_not_emoji(new_page, base_url: str, locale: str) -> None:  # noqa: ANN001
    page = new_page(width=360, height=740, locale=locale)
    bots = seat_in_new_game(page, base_url, 2, "Nok")
    page.wait_for_selector("#game:not([hidden])")
    page.locator("#talk-toggle").click()
    expect(page.locator("#talk")).to_be_visible()
    buttons = page.evaluate(BUTTONS)
    assert [b["reaction"] for b in buttons] == list(REACTIONS)
    for b in buttons:
        assert b["text"] == "", f"a reaction shows text, not a drawing: {b}"
        assert b["drawn"], f"no drawing for {b['reaction']}"
        assert b["size"] >= 20, f"reaction icon too small: {b}"
        assert b["label"], f"no accessible name: {b}"
    page.get_by_role("button", name=NAMES[locale]).click()
    said = page.locator("#talk-list .talk-msg").last
    expect(said.get_by_role("img", name=NAMES[locale])).to_be_visible()
    assert not page.evaluate(f"{EMOJI}.test(document.getElementById('talk').textContent)"), \
        "emoji in the chat dock"
    screenshot(page, f"reactions-360-{locale[:2]}", full_page=False)
    for b in bots:
        b.done.set()
    finish(bots)

"""The log and the chat at the table (issue 26): the open chat never covers the log or a
player's score on a desktop (docked below your own board: 1440×900 with three players,
1366×768 with four, where the log is a tab); on a phone it is a sheet that closes again.
The log folds presence noise (a player who drops and returns is one line, the latest) and
"Only my moves" keeps the seated player's lines and those about no seat. By geometry and
DOM, in Chromium."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Page, expect

from .players import RandomPlayer
from .test_full_games import seat_in_new_game
from .test_motion import MINE, play_mine
from .test_waiting_room import overlap
from .ui import save_shot

pytestmark = pytest.mark.browser

BOX = ("e => { const r = e.getBoundingClientRect();"
       " return {x: r.x, y: r.y, width: r.width, height: r.height}; }")


def boxes(page: Page, selector: str) -> list[dict[str, float]]:
    return [b for b in page.locator(selector).evaluate_all(f"els => els.map({BOX})")
            if b["width"] and b["height"]]


@pytest.mark.parametrize(("width", "height", "players", "locale"), [
    (1440, 900, 3, "en-US"), (1366, 768, 4, "th-TH"), (360, 740, 2, "ko-KR")])
def test_the_open_chat_covers_no_log_and_no_score(new_page, base_url: str, width: int,  # noqa: ANN001
                                                   height: int, players: int, locale: str) -> None:
    page = new_page(width=width, height=height, locale=locale)
    bots = seat_in_new_game(page, base_url, players, "Mina", delay=0.2)
    page.wait_for_selector("#game:not([hidden])")
    page.locator("#talk-toggle").click()
    talk = page.locator("#talk")
    expect(talk).to_be_visible()
    chat = talk.bounding_box()
    assert chat is not None
    lang = locale[:2]
    save_shot(page, f"chat-open-{width}-{lang}")
    if width >= 1200:
        # Docked: nothing of the log (or its tab) and no score under it.
        for box in boxes(page, "#log, .side-tabs, .pscore"):
            assert not overlap(chat, box), (chat, box)
    else:
        # A sheet along the bottom of the screen, whole, that closes again.
        assert chat["x"] >= 0 and chat["x"] + chat["width"] <= width + 1
        assert chat["y"] + chat["height"] <= height + 1
        page.locator("#talk-toggle").click()
        expect(talk).to_be_hidden()
    stop(bots)


def test_only_my_moves_keeps_my_lines(new_page, base_url: str) -> None:  # noqa: ANN001
    page = new_page(width=1440, height=900)
    bots = seat_in_new_game(page, base_url, 3, "Mina", delay=0.05)  # Mina: seat 0
    page.wait_for_selector("#game:not([hidden])")
    seats = "() => [...document.querySelectorAll('#log-list li')].map(li => li.dataset.seat)"
    rng = random.Random(5)
    for _ in range(20):  # until the log holds lines of mine and of the others'
        shown = set(page.evaluate(seats))
        if "0" in shown and shown - {"", "0"}:
            break
        if page.evaluate(MINE):
            play_mine(page, rng)
        else:
            page.wait_for_timeout(200)
    mine = page.locator(".log-mine")
    mine.click()
    expect(mine).to_have_attribute("aria-pressed", "true")
    shown = page.evaluate(seats)
    assert "0" in shown and set(shown) <= {"", "0"}, shown
    mine.click()
    expect(mine).to_have_attribute("aria-pressed", "false")
    assert set(page.evaluate(seats)) - {"", "0"}
    stop(bots)


def stop(bots: list[RandomPlayer]) -> None:
    for b in bots:
        b.done.set()  # each ends at its next frame (the page's leaving sends one)

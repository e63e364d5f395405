"""The waiting room's note matches the state, for each viewer (issue 11): the host, a
seated guest and a visitor each read what happens next, with the right plural, as seats
fill; in English word for word, and in Thai and Korean the same sentence as i18n gives."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest
from playwright.sync_api import Page, expect

from .players import join
from .test_who_and_continuity import create, seat_page

pytestmark = pytest.mark.browser

NOTE = ".wait-note"
EN = {
    "needFull2": "2 seats are still free: fill them (friends or bots), then start.",
    "pickSeat2": "2 seats are free: enter your name and sit down, or just watch.",
    "needFull1": "1 seat is still free: fill it (a friend or a bot), then start.",
    "hostStarts1": "Waiting for 1 more player; the host then starts the game.",
    "pickSeat1": "1 seat is free: enter your name and sit down, or just watch.",
    "readyHost": "Everyone is seated — start the game when you are ready.",
    "readyGuest": "Everyone is seated — the host will start the game.",
    "full": "Every seat is taken — you are watching.",
}
KEYS = {"needFull2": ("wait.needFull", 2), "pickSeat2": ("wait.pickSeat", 2),
        "needFull1": ("wait.needFull", 1), "hostStarts1": ("wait.hostStarts", 1),
        "pickSeat1": ("wait.pickSeat", 1), "readyHost": ("wait.readyHost", 0),
        "readyGuest": ("wait.readyGuest", 0), "full": ("wait.full", 0)}


def expected(page: Page, lang: str) -> Callable[[str], str]:
    if lang == "en":
        return EN.__getitem__
    said = page.evaluate("""async ([lang, keys]) => {
      const i18n = await import('/static/js/lang/i18n.js');
      i18n.setLang(lang);
      const out = {};
      for (const [name, [key, n]] of Object.entries(keys)) out[name] = i18n.t(key, {n});
      return out;
    }""", [lang, KEYS])
    assert not set(said.values()) & set(EN.values()), "translated, not the English text"
    return said.__getitem__


@pytest.mark.parametrize("locale", ["en-US", "th-TH", "ko-KR"])
def test_the_waiting_note_follows_the_seats(new_page, base_url: str, locale: str) -> None:  # noqa: ANN001
    code, host_token = create(base_url, 3)
    _, hana = join(base_url, code, "Hana")  # the first to sit holds the host's seat
    host = seat_page(new_page, code, hana, width=1366, height=768, locale=locale)
    visitor = seat_page(new_page, code, None, width=360, height=740, locale=locale)
    say = expected(visitor, locale[:2])
    visitor.reload()
    expect(host.locator(NOTE)).to_have_text(say("needFull2"))
    expect(visitor.locator(NOTE)).to_have_text(say("pickSeat2"))
    _, gil = join(base_url, code, "Gil")
    guest = seat_page(new_page, code, gil, width=1366, height=768, locale=locale)
    expect(host.locator(NOTE)).to_have_text(say("needFull1"))
    expect(guest.locator(NOTE)).to_have_text(say("hostStarts1"))
    expect(visitor.locator(NOTE)).to_have_text(say("pickSeat1"))
    httpx.post(f"{base_url}/api/rooms/{code}/bot",
               json={"token": host_token, "seat": 2, "level": "greedy"}).raise_for_status()
    expect(host.locator(NOTE)).to_have_text(say("readyHost"))
    expect(guest.locator(NOTE)).to_have_text(say("readyGuest"))
    expect(visitor.locator(NOTE)).to_have_text(say("full"))
    expect(host.locator(".start-btn")).to_be_enabled()

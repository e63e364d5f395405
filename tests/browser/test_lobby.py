"""The lobby and the waiting room: create, share, seat, host powers, spectators, languages."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import expect

from .players import bot_table
from .ui import button, no_sideways_scroll, screenshot

pytestmark = pytest.mark.browser


def test_lobby_screens_in_english_and_thai(new_page) -> None:  # noqa: ANN001
    for width in (360, 1440):
        page = new_page(width=width)
        page.goto("/")
        expect(page.get_by_role("heading", name="Open a new table")).to_be_visible()
        no_sideways_scroll(page)
        screenshot(page, f"lobby-{width}-en")
        page.get_by_role("button", name="ไทย").click()
        expect(page.get_by_role("heading", name="เปิดโต๊ะใหม่")).to_be_visible()
        expect(page.locator("html")).to_have_attribute("lang", "th")
        no_sideways_scroll(page)
        screenshot(page, f"lobby-{width}-th")


# What a stranger sees first (issue 46): Play now, its button on the first screen and above
# every other button of the page but "Learn to play"; Create table just after it, on the
# first screen too (issue 43: the number of players and the button).
FIRST = """() => {
  const box = (e) => e.getBoundingClientRect();
  const play = box(document.querySelector('#qp-play'));
  const create = [...document.querySelectorAll('#option-players label, #create-form > .btn.big')]
    .map(box);
  const others = [...document.querySelectorAll('main button, main a.btn, main input[type=submit]')]
    .filter((e) => e.offsetParent && e.id !== 'qp-play' && !e.hasAttribute('data-learn-start')
      && !e.closest('#qp-form'));
  return {play: {top: play.top, bottom: play.bottom, right: play.right},
          createBottom: Math.max(...create.map((r) => r.bottom)),
          createRight: Math.max(...create.map((r) => r.right)),
          firstOther: Math.min(...others.map((e) => box(e).top)),
          height: innerHeight, width: innerWidth};
}"""


@pytest.mark.parametrize("locale", ["en-US", "th-TH", "ko-KR"])
def test_lobby_puts_play_now_first_and_create_table_near(new_page, locale: str) -> None:  # noqa: ANN001
    """Issue 46: at 1366×768 and 360×740 Play now is the first thing a stranger sees; Create
    table (the number of players and its button) comes right after it; every other option
    is folded under "More options" until it is opened (issue 43)."""
    for width, height in ((360, 740), (1366, 768), (1440, 900)):
        page = new_page(width=width, height=height, locale=locale)
        page.goto("/")
        expect(page.locator("#qp-play")).to_be_visible()
        at = page.evaluate(FIRST)
        assert at["play"]["top"] >= 0 and at["play"]["bottom"] <= height, (width, at)
        assert at["play"]["right"] <= width and at["createRight"] <= width, (width, at)
        assert at["play"]["bottom"] <= at["firstOther"], (width, at)  # Play now before the rest
        assert at["play"]["bottom"] < at["createBottom"] <= height, (width, at)
        more = page.locator("#more-options")
        expect(more.locator("#option-mode")).to_be_hidden()
        screenshot(page, f"lobby-first-{width}-{locale[:2]}", full_page=False)
        more.locator("summary").click()
        expect(more.locator("#option-mode")).to_be_visible()
        no_sideways_scroll(page)


# Where your table under way is listed, beside the main actions' boxes.
MINE_AT = """() => { const box = (e) => e.getBoundingClientRect();
  const mine = box(document.querySelector('#mine'));
  const create = box(document.querySelector('#create-form > .btn.big'));
  return {top: mine.top, left: mine.left, createBottom: create.bottom,
          createRight: create.right}; }"""


def table_under_way(base_url: str) -> tuple[str, str]:
    """A 2-player table under way, made over HTTP: Mira in seat 1 (its code and her seat
    token), a bot in seat 2."""
    return bot_table(base_url, "Mira")


@pytest.mark.parametrize("locale", ["en-US", "th-TH", "ko-KR"])
def test_my_tables_come_after_play_now_and_create_table(  # noqa: ANN001
        new_page, base_url: str, locale: str) -> None:
    """Issue 43: with a table of yours under way, the lobby lists it ("My tables") after the
    main actions, under Create table on a phone and beside it on a desktop: Play now and
    Create table stay on the first screen at 360×740 and 1366×768 (My tables sat between
    them and pushed Create table below the fold on a phone)."""
    code, token = table_under_way(base_url)
    for width, height in ((360, 740), (1366, 768)):
        page = new_page(width=width, height=height, locale=locale)
        page.add_init_script(f"localStorage.setItem('cr.seat.{code.replace('-', '')}', '{token}')")
        page.goto("/")
        expect(page.locator("#my-tables li .room-link")).to_have_text(code)
        at = page.evaluate(FIRST)
        assert at["play"]["top"] >= 0 and at["play"]["bottom"] <= height, (width, at)
        assert at["play"]["bottom"] < at["createBottom"] <= height, (width, at)
        assert at["play"]["bottom"] <= at["firstOther"], (width, at)
        mine = page.evaluate(MINE_AT)
        # Under Create table, or beside it.
        assert mine["top"] >= mine["createBottom"] or mine["left"] >= mine["createRight"], \
            (width, mine)
        no_sideways_scroll(page)
        screenshot(page, f"lobby-mine-{width}-{locale[:2]}", full_page=False)


def test_rules_page_follows_the_browser_language(new_page, base_url: str) -> None:  # noqa: ANN001
    korean = new_page(locale="ko-KR")
    korean.goto("/rules")
    expect(korean.get_by_role("heading", name="Coffee Rush 게임 방법")).to_be_visible()
    expect(korean.get_by_text("초콜릿")).to_be_visible()


def test_waiting_room_host_powers_and_spectators(new_page, base_url: str) -> None:  # noqa: ANN001
    host = new_page(width=1024)
    host.goto("/")
    host.get_by_role("radio", name="3").check()
    host.get_by_text("More options").click()
    host.get_by_label("Public — listed in the lobby").check()
    button(host, "Create table").click()
    host.wait_for_url(re.compile(r"/r/"))
    code = host.url.rsplit("/", 1)[1]
    host.get_by_label("Your name").fill("Hana")
    button(host, "Sit in seat 1").click()
    expect(host.get_by_text("(you, host)")).to_be_visible()
    # The public table is listed in the lobby.
    visitor = new_page(width=360)
    visitor.goto("/")
    visitor.get_by_role("link", name=f"Sit at table {code}").click()
    visitor.get_by_label("Your name").fill("Vic")
    button(visitor, "Sit in seat 2").click()
    expect(host.get_by_text("Vic", exact=True)).to_be_visible()
    no_sideways_scroll(visitor)
    # The host adds a bot, removes the visitor, hands nothing over, and starts.
    host.get_by_label("Bot strength for seat 3").select_option("greedy")
    button(host, "Add a bot to seat 3").click()
    expect(host.get_by_text("Bot C (greedy)", exact=True)).to_be_visible()
    button(host, "Remove Vic").click()
    expect(visitor.get_by_role("button", name="Sit in seat 2")).to_be_visible()
    # "Continue on another device": the seat token travels in the fragment.
    device_link = host.locator("#wait-device-link").input_value()
    assert "#seat=" in device_link
    other_device = new_page(width=1024)
    other_device.goto(device_link)
    expect(other_device.get_by_text("(you, host)")).to_be_visible()
    expect(other_device).to_have_url(re.compile(r"/r/[^#]+$"))
    # Fill the last seat over HTTP; a newcomer to a full room just watches.
    httpx.post(f"{base_url}/api/rooms/{code}/join", json={"name": "Ben", "seat": 1})
    late = new_page(width=360)
    late.goto(f"/r/{code}")
    expect(late.get_by_text("Every seat is taken — you are watching.")).to_be_visible()
    expect(late.get_by_role("button", name="Start the game")).to_be_hidden()
    expect(other_device.get_by_role("button", name="Start the game")).to_be_enabled()
    # The first window lost the seat to the other device, and says so.
    expect(host.get_by_role("alert").filter(has_text="another tab or device")).to_be_visible()

"""The waiting room (issue 26): the turn clock sits with the table's other options inside
the waiting card, the link to share is /r/XXXX-XXXX, and on a phone the Chat button covers
no control — checked by bounding boxes in en, th and ko at 1440 and 360 px."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .ui import screenshot

pytestmark = pytest.mark.browser

CONTROLS = "#waiting button, #waiting input, #waiting select, #waiting summary"


def inside(inner: dict[str, float], outer: dict[str, float]) -> bool:
    return (inner["x"] >= outer["x"] - 1 and inner["y"] >= outer["y"] - 1
            and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 1
            and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + 1)


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


@pytest.mark.parametrize(("width", "height", "locale"), [
    (1440, 900, "en-US"), (360, 740, "th-TH"), (360, 740, "ko-KR"), (360, 740, "en-US")])
def test_the_clock_sits_with_the_options_and_chat_covers_nothing(
        new_page: Any, width: int, height: int, locale: str) -> None:
    page = new_page(width=width, height=height, locale=locale)
    page.goto("/")
    page.locator("#create-form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/r/[A-Z0-9]{4}-[A-Z0-9]{4}$"))
    page.locator("#player-name").fill("Mina")
    page.locator(".seat-ctrls .btn.primary").first.click()
    expect(page.locator(".start-btn")).to_be_visible()
    assert page.locator("#share-link").input_value() == page.url

    card = page.locator("#waiting").bounding_box()
    options = page.locator("#wait-options")
    # players, starting player, how you play, rated, who can find it
    expect(options.locator("li")).to_have_count(5)
    rated = {"en-US": "Rated", "th-TH": "นับเรตติ้ง", "ko-KR": "레이팅 반영"}[locale]
    expect(options).to_contain_text(rated)
    clock = page.locator("#clock-setting")
    expect(clock).to_be_visible()
    assert card and inside(clock.bounding_box(), card)  # type: ignore[arg-type]
    assert inside(options.bounding_box(), card)  # type: ignore[arg-type]
    # The custom clock form is laid out with the rest: inside the card too.
    page.locator("#clock-choice").select_option("custom")
    expect(page.locator(".clock-custom")).to_be_visible()
    assert inside(page.locator(".clock-custom").bounding_box(), card)  # type: ignore[arg-type]

    chat = page.locator("#talk-toggle").bounding_box()
    assert chat is not None
    for control in page.locator(CONTROLS).all():
        if control.is_visible() and control.get_attribute("id") != "talk-toggle":
            box = control.bounding_box()
            assert box and not overlap(chat, box), control.evaluate("e => e.outerHTML")
    screenshot(page, f"waiting-{width}-{locale[:2]}")

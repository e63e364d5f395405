"""A refusal's toast on a tablet (600 to 1199 px wide: 768×1024 and 1024×768) covers nothing
you can use, wherever you have scrolled (issue 43). There the action bar sticks to the top and
the page scrolls under the toast, which floated at the window's bottom centre: over the
board's bottom row while walking, over your cups and their Empty buttons while pouring, over
the orders a picked cup serves. Now (bar-notes.js placeLooseToast) it takes the first spot
where it covers nothing usable: the bottom's centre, left or right, else under the bar. A
real error frame from the server (test_phone_bar_rows.refusing); bounding boxes at every
scroll position, in the walk, the pour (a token picked) and the serve (a cup picked)."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from .test_one_screen import phase
from .test_phone_bar_rows import UNDER_THE_TOAST, click_any, make_usable, refusing_game, to_step
from .ui import save_shot

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("width", "height"), [(768, 1024), (1024, 768)])
def test_a_refusal_on_a_tablet_covers_nothing_you_can_use(new_page, base_url: str,  # noqa: ANN001
                                                          width: int, height: int) -> None:
    page = new_page(width=width, height=height)
    state = refusing_game(page, base_url)
    rng = random.Random(5)
    for step, walking in (("move", True), ("pour", False), ("process", False)):
        to_step(page, rng, step, walking)
        expect(page.locator("#toast")).to_be_hidden(timeout=8000)  # the last step's gone
        make_usable(page)
        state["spoil"] = True
        for _ in range(20):  # picking a token or a cup sends nothing: on to what does
            if not state["spoil"]:
                break
            click_any(page, rng)
        make_usable(page)
        expect(page.locator("#toast")).to_be_visible()
        assert phase(page) == step  # refused: nothing changed
        most = page.evaluate("document.scrollingElement.scrollHeight - innerHeight")
        seen = []
        for y in range(0, most + 80, 80):  # wherever the player has scrolled to
            page.evaluate(f"() => scrollTo(0, {min(y, most)})")
            page.wait_for_timeout(60)  # (placed in the frame after the scroll)
            toast = page.evaluate(UNDER_THE_TOAST)
            if "not allowed" not in toast["text"]:
                break  # (its 5 seconds are up)
            seen.append(toast["box"])
            assert toast["inside"], (width, step, y, toast)
            assert toast["over"] == [], (width, step, y, toast)
            if y == 160:
                save_shot(page, f"tablet-refused-{step}-{width}")
        print(f"{width}x{height} {step}: toast at {len(set(map(tuple, seen)))} spots over "
              f"{len(seen)} scroll positions, covering nothing usable")
        assert len(seen) >= 3, (width, step, seen)

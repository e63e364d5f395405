"""A signed-in player's rating, in Chromium (issue 29): Rita and Otto, each signed in in a
browser of their own, play two rated games (their moves over their sockets, seeded: the
cheapest way to a game's end); after each, Rita's final screen says how her rating moved,
the second game starting where the first left it; her profile (/u/Rita) then shows the
rating the last final screen gave, two rated games, a point of the chart per game and both
games among her recent ones."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.persist.live import play_out

from .ui import SAME_SITE

pytestmark = pytest.mark.browser
CHANGE = re.compile(r"Rita (\d+) → (\d+) [+−]\d+")


def _sign_up(page: Page, name: str) -> None:
    page.goto("/")
    made = page.request.post("/api/accounts", headers=SAME_SITE,
                             data={"name": name, "password": "lattes-4-all"})
    assert made.status == 201, made.text()


def _rated_game(rita: Page, otto: Page, base_url: str, seed: int) -> tuple[int, int]:
    """One rated game to its end; (before, after) of Rita's rating on her final screen."""
    made = rita.request.post("/api/rooms", headers=SAME_SITE, data={"players": 2}).json()
    code, seats, rita_seat = made["code"], {}, None
    for page in (rita, otto):
        sat = page.request.post(f"/api/rooms/{code}/join", headers=SAME_SITE,
                                data={"name": "-"}).json()
        seats[sat["seat"]] = sat["seat_token"]
        rita_seat = sat["seat"] if page is rita else rita_seat
    assert rita.request.post(f"/api/rooms/{code}/start", headers=SAME_SITE,
                             data={"token": made["host_token"]}).ok
    play_out(base_url.replace("http", "ws", 1) + f"/ws/{code}", seats, seed)
    rita.evaluate("([c, t]) => localStorage.setItem(`cr.seat.${c}`, t)",
                  [code.replace("-", ""), seats[rita_seat]])
    rita.goto(f"/r/{code}")
    line = rita.locator("#final .rating-changes")
    expect(line).to_contain_text("Otto", timeout=15_000)
    found = CHANGE.search(line.inner_text())
    assert found, line.inner_text()
    return int(found.group(1)), int(found.group(2))


def test_a_signed_in_player_sees_the_rating_move_on_the_final_screen_and_profile(
        new_page: Any, base_url: str) -> None:
    rita, otto = new_page(width=1280), new_page(width=1280)
    _sign_up(rita, "Rita")
    _sign_up(otto, "Otto")
    first = _rated_game(rita, otto, base_url, seed=11)
    assert first[0] == 1500 and first[1] != 1500  # a new player's 1500, then moved
    second = _rated_game(rita, otto, base_url, seed=12)
    assert second[0] == first[1]  # the second game starts where the first left her

    rita.goto("/u/Rita")
    expect(rita.locator("h1")).to_contain_text("Rita")
    expect(rita.locator(".profile-rating .rating")).to_have_text(str(second[1]))
    expect(rita.locator('[data-t="profile.ratedGames"]')).to_have_text("after 2 rated games")
    points = rita.locator(".rating-chart polyline.line").get_attribute("points") or ""
    assert len(points.split()) >= 2, points  # one point per game (and where she began)
    expect(rita.locator(".recent-games li")).to_have_count(2)

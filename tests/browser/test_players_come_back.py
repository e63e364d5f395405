"""Issue 29's whole flow in Chromium: Rita and Otto each make an account with a passkey (a
browser of their own, each with its own virtual authenticator), then play three rated games
together against the expert bot (their moves over their sockets, seeded: the cheapest way to
a game's end; the bot thinks without the watchable delay). After the third, Rita's final
screen says how her rating moved, her profile counts three rated games with a point of the
chart per game, and the leaderboard ranks both of them (three games is the default
minimum), the bots' fixed ratings beside. The second device and the guest who plays on by
link are test_my_tables.py's."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.persist.live import play_out
from tests.serving import served

from .test_account_passkey import AUTHENTICATOR
from .ui import SAME_SITE

pytestmark = pytest.mark.browser
CHANGE = re.compile(r"Rita (\d+) → (\d+) [+−]\d+")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """A server of its own whose bots move as soon as they have thought (BOT_DELAY 0);
    its address by name, as a passkey's relying party is a domain, never an IP address."""
    with served(tmp_path / "players.db", TEST_FIXED_SEED="7", BOT_DELAY="0",
                ROOM_CREATE_RATE="1000", WS_PER_ADDRESS="100000") as url:
        yield url.replace("127.0.0.1", "localhost")


def passkey_account(browser: Any, url: str, name: str) -> tuple[BrowserContext, Page]:
    """A browser with its own authenticator, signed up as `name` with a passkey."""
    ctx = browser.new_context(base_url=url, viewport={"width": 1280, "height": 900},
                              locale="en-US", reduced_motion="reduce")
    ctx.set_default_timeout(15_000)
    page = ctx.new_page()
    devtools = ctx.new_cdp_session(page)
    devtools.send("WebAuthn.enable")
    devtools.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
    page.goto("/account")
    page.locator("#sign-up-name").fill(name)
    page.locator("#sign-up-passkey").click()
    expect(page.locator("#account-name")).to_have_text(f"Signed in as {name}")
    return ctx, page


def rated_game(rita: Page, otto: Page, url: str, seed: int) -> None:
    """Rita (host), Otto and the expert bot play one game to its end."""
    made = rita.request.post("/api/rooms", headers=SAME_SITE, data={"players": 3}).json()
    code, seats = made["code"], {}
    for page in (rita, otto):
        sat = page.request.post(f"/api/rooms/{code}/join", headers=SAME_SITE,
                                data={"name": "-"}).json()
        seats[sat["seat"]] = sat["seat_token"]
    assert rita.request.post(f"/api/rooms/{code}/bot",
                             headers=SAME_SITE,
                             data={"token": made["host_token"], "level": "expert"}).ok
    assert rita.request.post(f"/api/rooms/{code}/start", headers=SAME_SITE,
                             data={"token": made["host_token"]}).ok
    over = play_out(url.replace("http", "ws", 1) + f"/ws/{code}", seats, seed)
    assert over["phase"] == "over"
    rita.evaluate("([c, t]) => localStorage.setItem(`cr.seat.${c}`, t)",
                  [code.replace("-", ""), seats[0]])
    rita.goto(f"/r/{code}")


def test_two_passkey_players_rated_against_the_expert_reach_profile_and_leaderboard(
        browser: Any, server: str) -> None:
    (rita_ctx, rita), (otto_ctx, otto) = (passkey_account(browser, server, "Rita"),
                                          passkey_account(browser, server, "Otto"))
    try:
        for seed in (21, 22, 23):
            rated_game(rita, otto, server, seed)
        line = rita.locator("#final .rating-changes")
        expect(line).to_contain_text("Otto")  # the bot's rating is fixed: not listed
        moved = CHANGE.search(line.inner_text())
        assert moved, line.inner_text()

        rita.goto("/u/Rita")
        expect(rita.locator(".profile-rating .rating")).to_have_text(moved.group(2))
        expect(rita.locator('[data-t="profile.ratedGames"]')).to_have_text(
            "after 3 rated games")
        points = rita.locator(".rating-chart polyline.line").get_attribute("points") or ""
        assert len(points.split()) >= 3, points
        expect(rita.locator(".recent-games li")).to_have_count(3)

        otto.goto("/players")
        names = otto.locator(".leaderboard .player-link")
        expect(names).to_have_count(2)
        assert sorted(names.all_inner_texts()) == ["Otto", "Rita"]
        expect(otto.locator(".bot-ratings")).to_contain_text("1968")  # the expert's
    finally:
        rita_ctx.close()
        otto_ctx.close()

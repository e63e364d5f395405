"""Late and away in a turn-based game, in Chromium (issue 30), on a real server whose
clock the test moves by days: the player who is not to act pauses their clock ("away
until" a date) once; the player to act runs out of time and bank; only the other is
offered the choice; they let a bot play the late turn (the stand-in plays it, the turn
comes to them), and when the same player is late again they end the game, which is stored
as abandoned. Nothing is lost by the late player until another chooses."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.persist.live import Player

from .clocked import Clock, clocked_server, clocked_settings, room_of

pytestmark = [pytest.mark.browser, pytest.mark.timeout(60)]
DAY = 86400


def _until(check: Callable[[], Any], seconds: float = 10) -> Any:
    deadline = time.monotonic() + seconds
    while not (found := check()):
        assert time.monotonic() < deadline, "the condition never held"
        time.sleep(0.05)
    return found


def test_away_once_then_late_a_stand_in_plays_and_then_the_game_is_abandoned(
        browser: Any, tmp_path: Path) -> None:
    clock = Clock()
    settings = clocked_settings(tmp_path, BOT_WORKERS=1, BOT_DELAY=0, TAKEOVER_LEVEL="greedy")
    with clocked_server(settings, clock) as (url, app):
        made = httpx.post(f"{url}/api/rooms", json={
            "players": 2, "mode": "turn_based",
            "clock": {"turn": DAY, "bank": 3 * DAY}}).json()
        code, host = made["code"], made["host_token"]
        tokens = [httpx.post(f"{url}/api/rooms/{code}/join", json={"name": n}).json()[
            "seat_token"] for n in ("Ana", "Bo")]
        assert httpx.post(f"{url}/api/rooms/{code}/start", json={"token": host}).is_success
        pages, errors = [], []
        for token in tokens:
            ctx = browser.new_context(base_url=url, locale="en-US", reduced_motion="reduce")
            ctx.set_default_timeout(10_000)
            ctx.add_init_script(
                f"localStorage.setItem('cr.seat.{code.replace('-', '')}', '{token}')")
            page = ctx.new_page()
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(f"/r/{code}")
            pages.append(page)
        room = room_of(app, code)
        late, other = room.game.current, 1 - room.game.current  # the seat to act will be late
        name = ("Ana", "Bo")[late]
        slow, chooser = pages[late], pages[other]
        try:
            # The other player pauses their clock until a day two days ahead (their
            # browser's calendar); the choice is offered once per game.
            expect(chooser.locator("#away-choice")).to_be_visible()
            day = chooser.evaluate("(() => { const d = new Date(Date.now() + 2 * 86400000);"
                                   " return d.toISOString().slice(0, 10); })()")
            chooser.locator("#away-date").fill(day)
            chooser.locator("#away-set").click()
            expect(chooser.locator("#away-paused")).to_contain_text("Your clock is paused for")
            expect(chooser.locator("#away-choice")).to_be_hidden()
            assert room.turn_clock.away_used[other] and not room.turn_clock.away_used[late]

            # The player to act runs out of day and bank: only the other is asked.
            clock.advance(4 * DAY + 60)
            choice = chooser.locator("#late-choice")
            expect(choice).to_be_visible()
            expect(choice).to_contain_text(f"{name} ran out of time and bank.")
            expect(slow.locator("#late-choice")).to_be_hidden()
            assert room.game.current == late  # nothing happened by itself
            chooser.get_by_role("button", name="Let a bot play this turn").click()
            expect(choice).to_be_hidden()
            # The stand-in played that turn, and the seat is its player's again. (The
            # server's thread hands the seat back at the commit after the turn's last
            # action, so the two are awaited together, not read one after the other.)
            _until(lambda: room.game.current == other and room.seats[late].stand_in is None)

            # The other plays their turn (over a socket of its own); the same player is late
            # again (a day, no bank left),
            # and this time the other ends the game.
            player = Player(url.replace("http", "ws", 1) + f"/ws/{code}", tokens[other])
            while player.game()["current"] == other:
                player.act(player.game()["legal"][-1])
            player.close()
            chooser.reload()  # that socket took the seat's connection over from the page
            clock.advance(4 * DAY + 60)
            expect(choice).to_be_visible()
            chooser.get_by_role("button", name="End the game (abandoned)").click()
            games = _until(lambda: httpx.get(f"{url}/api/games").json()["items"])
            assert games[0]["end_reason"] == "abandoned"
            expect(chooser.locator("#prompt")).to_have_text("This table has closed.")
        finally:
            for page in pages:
                page.context.close()
        assert not errors, errors

"""My tables (issue 29): a signed-in player finds a table they sit at from a second device
and takes their seat back with one click; a guest finds theirs from the seat links this
browser holds. Yours to play first; the page title counts them."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .ui import SAME_SITE, screenshot

pytestmark = pytest.mark.browser


def sign_up(page: Page, name: str) -> None:
    """An account with a password, made through the API from this browser (its cookie)."""
    made = page.request.post("/api/accounts", headers=SAME_SITE,
                             data={"name": name, "password": "lattes-4-all"})
    assert made.status == 201, made.text()


def test_my_tables_from_a_second_device_and_for_a_guest(new_page) -> None:  # noqa: ANN001
    first = new_page(width=1440, height=900)
    first.goto("/")
    sign_up(first, "Mira")
    made = first.request.post("/api/rooms", headers=SAME_SITE, data={"players": 2}).json()
    code = made["code"]
    sat = first.request.post(f"/api/rooms/{code}/join", headers=SAME_SITE,
                             data={"name": "ignored"}).json()
    guest = new_page(width=360, height=740)
    guest.goto(f"/r/{code}")
    guest.get_by_label("Your name").fill("Gus")
    guest.get_by_role("button", name="Sit in seat 2", exact=True).click()
    expect(guest.get_by_text("(you)")).to_be_visible()
    assert first.request.post(f"/api/rooms/{code}/start",
                              headers=SAME_SITE, data={"token": made["host_token"]}).ok

    # A second device: signed in to the same account, no seat link of its own.
    second = new_page(width=1366, height=768)
    second.goto("/")
    signed = second.request.post("/api/sign-in/password",
                                 headers=SAME_SITE,
                                 data={"name": "mira", "password": "lattes-4-all"})
    assert signed.ok, signed.text()
    second.goto("/account")  # the account page leads to the profile and to my tables
    expect(second.locator("#profile-link")).to_have_attribute("href", "/u/Mira")
    second.get_by_role("link", name="Your tables").click()
    mine = second.locator("#my-tables li")
    expect(mine).to_have_count(1)
    expect(mine.locator(".room-link")).to_have_text(code)
    screenshot(second, "my-tables-1366", full_page=False)
    mine.get_by_role("button", name=re.compile("Take your seat at")).click()
    second.wait_for_url(re.compile(rf"/r/{code}"))
    expect(second.get_by_text("(you")).to_be_visible()
    # The seat's old link stopped working; the new one is this device's.
    assert first.request.post(f"/api/rooms/{code}/leave",
                              headers=SAME_SITE,
                              data={"seat_token": sat["seat_token"]}).status >= 400

    # The guest's lobby lists the table from the link this browser holds, no rejoin needed.
    guest.goto("/")
    row = guest.locator("#my-tables li")
    expect(row).to_have_count(1)
    expect(row.locator(".room-link")).to_have_text(code)
    expect(row.locator("button.rejoin")).to_have_count(0)
    turn = guest.evaluate("document.title")
    assert turn.startswith("(1) ") == ("Your turn" in (row.text_content() or ""))
    screenshot(guest, "my-tables-360", full_page=False)


def test_the_final_screen_says_how_a_rated_game_moved_the_ratings(
    new_page, base_url: str  # noqa: ANN001
) -> None:
    """Two signed-in players finish a rated game (played over their sockets); the final
    screen, for a player and for a watcher, says how each rating moved."""
    from tests.persist.live import play_out

    ana, ben = new_page(width=1440, height=900), new_page(width=360, height=740, locale="ko-KR")
    for page, name in ((ana, "Anya"), (ben, "Benno")):
        page.goto("/")
        sign_up(page, name)
    made = ana.request.post("/api/rooms", headers=SAME_SITE, data={"players": 2}).json()
    code = made["code"]
    seats, seats_of = {}, {}
    for page, name in ((ana, "Anya"), (ben, "Benno")):
        sat = page.request.post(f"/api/rooms/{code}/join", headers=SAME_SITE,
                                data={"name": "-"}).json()
        seats[sat["seat"]] = sat["seat_token"]
        seats_of[name] = sat["seat"]
    assert ana.request.post(f"/api/rooms/{code}/start", headers=SAME_SITE,
                            data={"token": made["host_token"]}).ok
    final = play_out(base_url.replace("http", "ws", 1) + f"/ws/{code}", seats, 11)
    winners = final["result"]["winners"]
    token = seats[seats_of["Anya"]]  # Anya's browser keeps her seat's link, as after a join
    ana.evaluate("([c, t]) => localStorage.setItem(`cr.seat.${c}`, t)",
                 [code.replace("-", ""), token])
    ana.goto(f"/r/{code}")
    line = ana.locator("#final .rating-changes")
    expect(line).to_be_visible(timeout=15_000)
    expect(line).to_contain_text("Anya")
    expect(line).to_contain_text("Benno")
    if len(winners) == 1:  # the winner's rating went up
        expect(line.locator(".up")).to_have_count(1)
    expect(ana.locator("#token-state")).to_have_text("Game over")  # not "Last round"
    screenshot(ana, "final-ratings-1440", full_page=False)
    # The log's "Only my moves" (issue 26): the other player's lines go, and come back.
    lines = ana.locator("#log-list li")
    expect(lines.first).to_be_visible()
    seat = str(seats_of["Anya"])
    other = f'#log-list li[data-seat]:not([data-seat=""]):not([data-seat="{seat}"])'
    assert ana.locator(other).count() > 0
    ana.get_by_role("button", name="Only my moves").click()
    expect(ana.locator(other)).to_have_count(0)
    expect(ana.locator(f'#log-list li[data-seat="{seat}"]').first).to_be_visible()
    ana.get_by_role("button", name="Only my moves").click()
    expect(ana.locator(other).first).to_be_attached()
    ben.goto(f"/r/{code}")
    expect(ben.locator("#final .rating-changes")).to_contain_text("레이팅")


def test_a_signed_in_player_takes_their_seat_on_the_table_page(new_page) -> None:  # noqa: ANN001
    """Opening the table on a device with no link to the seat, the signed-in player is
    offered their seat there (not left watching), in one click."""
    first = new_page(width=1440, height=900)
    first.goto("/")
    sign_up(first, "Tova")
    made = first.request.post("/api/rooms", headers=SAME_SITE, data={"players": 2}).json()
    code = made["code"]
    assert first.request.post(f"/api/rooms/{code}/join", headers=SAME_SITE, data={"name": "-"}).ok
    second = new_page(width=360, height=740)
    second.goto("/")
    assert second.request.post("/api/sign-in/password",
                               headers=SAME_SITE,
                               data={"name": "Tova", "password": "lattes-4-all"}).ok
    second.goto(f"/r/{code}")
    second.get_by_role("button", name="Take my seat").click()
    expect(second.get_by_text("(you, host)").or_(second.get_by_text("(you)"))).to_be_visible()
    expect(second.locator(".take-back")).to_be_hidden()
    guest = new_page(width=1440, height=900)  # nobody else is offered the seat
    guest.goto(f"/r/{code}")
    expect(guest.locator("#waiting")).to_be_visible()
    expect(guest.locator(".take-back")).to_be_hidden()

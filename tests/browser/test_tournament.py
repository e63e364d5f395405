"""Tournaments in Chromium: the lobby leads to the list; a signed-in player organises one
with the form and enters with the page's button; the page turns to round 1 by itself when
the start time comes (its socket, no reload), showing each table with a Play link for its
own players; the page in en/th/ko at 1440 (standings and rounds side by side) and 360
(stacked, nothing sideways). An invite-only tournament: its organiser copies the link the
page shows, those who open it enter, a player without it is refused in their language;
Play on the started round seats the player at their table. Bounding boxes, no pixel
goldens."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from .ui import box, no_sideways_scroll, screenshot

pytestmark = pytest.mark.browser


def _signed_in(new_page, base_url: str, name: str, width: int = 1440,  # noqa: ANN001
               locale: str = "en-US"):  # noqa: ANN202
    page = new_page(width=width, locale=locale)
    made = page.request.post("/api/accounts", headers={"Origin": base_url},
                             data={"name": name, "password": "correct horse"})
    assert made.status == 201, made.text()
    return page


def test_organise_enter_and_watch_round_one_start_live(new_page, base_url: str) -> None:  # noqa: ANN001
    org = _signed_in(new_page, base_url, "TourOrg")
    org.goto("/")
    org.get_by_role("link", name="Tournaments: Swiss and round robin").click()
    expect(org).to_have_url(re.compile(r"/tournaments$"))
    org.wait_for_load_state()  # the form is sent by the page's module
    org.locator("#tf-name").fill("Browser Cup")
    org.locator("#tf-size").select_option("2")
    org.locator("#tf-rounds").fill("2")
    org.get_by_role("button", name="Organise").click()
    expect(org).to_have_url(re.compile(r"/tournaments/\d+$"))
    expect(org.locator("#tour-facts")).to_contain_text("Swiss · 2 players a table · 2 rounds")
    org.get_by_role("button", name="Enter").click()
    expect(org.get_by_role("button", name="Withdraw")).to_be_visible()  # live: the frame
    # A tournament starting in a few seconds, four players entered; the organiser's page,
    # open before the start, turns to round 1 by itself.
    # (Everyone signs up before the clock starts: only the entries must beat it.)
    ann, ben, cid = (_signed_in(new_page, base_url, n) for n in ("TourAnn", "TourBen", "TourCid"))
    start = (datetime.now(UTC) + timedelta(seconds=8)).isoformat()
    made = ann.request.post("/api/tournaments", headers={"Origin": base_url}, data={
        "name": "Live Cup", "table_size": 2, "rounds": 2, "starts_at": start})
    assert made.status == 201, made.text()
    tid = made.json()["id"]
    players = [ann, org, ben, cid]
    for page in players:
        joined = page.request.post(f"/api/tournaments/{tid}/join", headers={"Origin": base_url},
                                   data={})
        assert joined.status == 200, joined.text()
    org.goto(f"/tournaments/{tid}")
    expect(org.locator("#tour-rows tr")).to_have_count(4)
    expect(org.locator("#tour-state")).to_contain_text("Round 1 of 2", timeout=30_000)
    expect(org.locator(".tour-round .tour-table")).to_have_count(2)
    expect(org.get_by_role("link", name="Play", exact=True)).to_have_count(1)  # its own table only
    expect(org.get_by_role("link", name="Watch", exact=True)).to_have_count(1)
    for lang, locale in (("en", "en-US"), ("th", "th-TH"), ("ko", "ko-KR")):
        for width in (1440, 360):
            page = new_page(width=width, locale=locale)
            page.goto(f"/tournaments/{tid}")
            expect(page.locator(".tour-round .tour-table")).to_have_count(2)
            no_sideways_scroll(page)
            standings = box(page.locator(".tour-standings"))
            rounds = box(page.locator(".tour-rounds"))
            if width == 1440:  # side by side, the same top
                assert rounds["x"] >= standings["x"] + standings["width"] - 1
                assert abs(rounds["y"] - standings["y"]) < 2
            else:  # stacked, each the page's width
                assert rounds["y"] >= standings["y"] + standings["height"] - 1
                assert standings["width"] <= width and rounds["width"] <= width
            table = box(page.locator(".tour-table").first)
            assert table["x"] >= 0 and table["x"] + table["width"] <= width
            if lang != "en":
                assert "Standings" not in page.locator(".tour-standings h2").inner_text()
            screenshot(page, f"tournament-{lang}-{width}")
    lst = new_page(width=360, locale="th-TH")
    lst.goto("/tournaments")
    no_sideways_scroll(lst)
    screenshot(lst, "tournaments-th-360")



def _in_view(page, locator) -> None:  # noqa: ANN001
    """The control, scrolled to, lies wholly inside the window; nothing scrolls sideways.
    (The page renders again on each frame of its socket: the control may be replaced.)"""
    for _ in range(20):
        try:
            locator.scroll_into_view_if_needed(timeout=1000)
            box = locator.bounding_box(timeout=1000)
            break
        except PlaywrightError:
            page.wait_for_timeout(100)
    else:
        raise AssertionError(f"{locator} never stayed in place")
    size = page.viewport_size
    assert box and size, locator
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], box
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], box
    no_sideways_scroll(page)


# The guests' language: Korean at 360, Thai at 1440 (the organiser's pages are English).
WORDS = {"ko-KR": {"enter": "참가하기", "withdraw": "기권하기", "play": "플레이",
                   "not_invited": "초대 전용 토너먼트입니다"},
         "th-TH": {"enter": "สมัคร", "withdraw": "ถอนตัว", "play": "เล่น",
                   "not_invited": "เฉพาะผู้ได้รับเชิญ"}}


@pytest.mark.parametrize(("width", "height", "locale"), [(360, 740, "ko-KR"), (1440, 900, "th-TH")])
def test_an_invite_link_lets_its_holders_in_and_play_takes_a_player_to_their_seat(  # noqa: ANN001
        new_page, base_url: str, width: int, height: int, locale: str) -> None:
    words = WORDS[locale]
    # Everyone signs up first: the round starts by the clock, and all below up to it must
    # happen before (under load the sign-ups alone took seconds of a 12 s window).
    org = new_page(width=width, height=height)
    ben = new_page(width=width, height=height, locale=locale)
    ann = new_page(width=width, height=height, locale=locale)
    for page, name in ((org, "InvOrg"), (ben, "InvBen"), (ann, "InvAnn")):
        made = page.request.post("/api/accounts", headers={"Origin": base_url},
                                 data={"name": f"{name}{width}", "password": "correct horse"})
        assert made.status == 201, made.text()
    start = (datetime.now(UTC) + timedelta(seconds=20)).isoformat()
    made = org.request.post("/api/tournaments", headers={"Origin": base_url}, data={
        "name": f"Friends {width}", "table_size": 2, "rounds": 1, "starts_at": start,
        "invite_only": True})
    assert made.status == 201, made.text()
    tid = made.json()["id"]
    # The organiser's page shows the invite link and copies it; the organiser opens it and
    # enters.
    org.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base_url)
    org.goto(f"/tournaments/{tid}")
    shown = org.locator(".tour-invite-url")
    _in_view(org, shown)
    copy = org.get_by_role("button", name="Copy link", exact=True)
    _in_view(org, copy)
    copy.click()
    expect(org.get_by_role("button", name="Link copied", exact=True)).to_be_visible()
    link = org.evaluate("navigator.clipboard.readText()")
    assert link == shown.input_value()
    assert link.startswith(f"{base_url}/tournaments/{tid}?invite=")
    org.goto(link)
    org.get_by_role("button", name="Enter", exact=True).click()
    expect(org.get_by_role("button", name="Withdraw", exact=True)).to_be_visible()
    # A player without the link is refused, in their language; one with it enters.
    ben.goto(f"/tournaments/{tid}")
    enter = ben.get_by_role("button", name=words["enter"], exact=True)
    _in_view(ben, enter)
    enter.click()
    refused = ben.get_by_role("alert")
    expect(refused).to_contain_text(words["not_invited"])
    _in_view(ben, refused)
    ann.goto(link)
    ann.get_by_role("button", name=words["enter"], exact=True).click()
    expect(ann.get_by_role("button", name=words["withdraw"], exact=True)).to_be_visible()
    expect(ann.locator("#tour-rows tr")).to_have_count(2)
    expect(ben.locator("#tour-rows tr")).to_have_count(2)  # live, and Ben is not in
    # That frame redrew Ben's page: his refusal is still said until he acts again.
    expect(ben.get_by_role("alert")).to_be_visible()
    expect(ben.get_by_role("alert")).to_contain_text(words["not_invited"])
    expect(ben.get_by_role("button", name=words["enter"], exact=True)).to_be_visible()
    # Round 1 starts by itself: Ann's page offers Play at her table, which seats her there.
    play = ann.get_by_role("link", name=words["play"], exact=True)
    expect(play).to_have_count(1, timeout=40_000)
    expect(ben.get_by_role("link", name=words["play"], exact=True)).to_have_count(0)
    _in_view(ann, play)
    screenshot(ann, f"tournament-invited-{locale}-{width}")
    play.click()
    expect(ann).to_have_url(re.compile(r"/r/[A-Z0-9-]+$"))
    expect(ann.locator(".pboard.is-me .pname")).to_contain_text(f"InvAnn{width}")
    expect(ann.locator(".pboard .pname")).to_have_count(2)
    no_sideways_scroll(ann)


def test_link_copied_stays_through_the_pages_updates(new_page, base_url: str) -> None:  # noqa: ANN001
    """The page builds its actions again on each frame of its socket: "Link copied" stays
    through a frame (an entry) and goes back to "Copy link" a few seconds later (issue 46;
    before, the next frame put "Copy link" back at once)."""
    org = _signed_in(new_page, base_url, "CopyOrg")
    start = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    made = org.request.post("/api/tournaments", headers={"Origin": base_url}, data={
        "name": "Copy Cup", "table_size": 2, "rounds": 1, "starts_at": start,
        "invite_only": True})
    assert made.status == 201, made.text()
    tid = made.json()["id"]
    org.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base_url)
    org.goto(f"/tournaments/{tid}")
    expect(org.locator("#tour-rows tr")).to_have_count(0)
    org.get_by_role("button", name="Copy link", exact=True).click()
    copied = org.get_by_role("button", name="Link copied", exact=True)
    expect(copied).to_be_visible()
    joined = org.request.post(f"/api/tournaments/{tid}/join", headers={"Origin": base_url},
                              data={})
    assert joined.status == 200, joined.text()
    expect(org.locator("#tour-rows tr")).to_have_count(1)  # the frame came, the page redrawn
    expect(copied).to_be_visible()
    expect(org.get_by_role("button", name="Copy link", exact=True)).to_be_visible(
        timeout=15_000)

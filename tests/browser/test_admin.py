"""The operators' page in Chromium (issue 47): an operator the host marked sees the live
rooms and what the server is doing, posts an announcement every lobby and table shows as
plain text, closes a room (its table says so), mutes a player; everyone else finds no such
page. Looked at on a phone and two desktops in en/th/ko: nothing scrolls sideways."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.serving import ROOT, served

from .test_my_tables import sign_up
from .ui import SAME_SITE, no_sideways_scroll, screenshot

pytestmark = pytest.mark.browser
HOSTILE = '<img src=x onerror="document.title=1"> Restart at 22:00 & back soon'
SIZES = ((360, 740), (1366, 768), (1440, 900))


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("admin") / "coffee-rush.db"


@pytest.fixture(scope="module")
def base_url(database: Path) -> Iterator[str]:
    """A server of this module's own: the host's command line marks an operator on its file."""
    with served(database, TEST_FIXED_SEED="7", BOT_WORKERS="0") as url:
        yield url


def test_an_operator_watches_announces_closes_and_mutes(new_page, database: Path) -> None:  # noqa: ANN001
    oona = new_page(width=1440, height=900)
    oona.goto("/")
    sign_up(oona, "Oona")
    # The host's command line, as the host runs it.
    subprocess.run([sys.executable, "-m", "server.cli", "users", "--database-url",
                    f"sqlite+aiosqlite:///{database}", "operator", "Oona"], check=True,
                   cwd=ROOT, capture_output=True)

    pat: Page = new_page(width=360, height=740)
    pat.goto("/")
    sign_up(pat, "Pat")
    made = pat.request.post("/api/rooms", headers=SAME_SITE, data={"players": 2}).json()
    code = made["code"]
    assert pat.request.post(f"/api/rooms/{code}/join", headers=SAME_SITE,
                            data={"name": "Pat"}).ok
    pat.goto(f"/r/{code}")
    pat.get_by_role("button", name="Take my seat").click()
    expect(pat.get_by_text(re.compile(r"\(you"))).to_be_visible()

    # A player who is no operator: no such page, nothing about it.
    pat_admin = pat.context.new_page()
    pat_admin.goto("/admin")
    expect(pat_admin.get_by_role("heading", name="This page does not exist")).to_be_visible()
    assert pat_admin.locator("#admin-rooms").count() == 0
    pat_admin.close()

    oona.goto("/admin")
    expect(oona.get_by_role("heading", name="Operators' page")).to_be_visible()
    expect(oona.locator("#admin-me")).to_have_text("Signed in as Oona, operator.")
    rooms = oona.locator("#admin-rooms tbody tr")
    expect(rooms).to_have_count(1)
    expect(rooms.first).to_contain_text(code)
    expect(rooms.first).to_contain_text("Pat")
    expect(oona.locator("#admin-instances tbody")).to_contain_text("fine")

    # The announcement: shown on every page as the characters typed, never as HTML.
    oona.get_by_label(re.compile("Shown at the top of every lobby")).fill(HOSTILE)
    oona.get_by_role("button", name="Post").click()
    expect(oona.locator("#admin-said")).to_have_text("Done.")
    expect(oona.locator("#announce-shown")).to_have_text(HOSTILE)
    for path in (f"/r/{code}", "/"):
        pat.goto(path)
        banner = pat.locator("#announcement")
        expect(banner).to_have_text(f"Announcement: {HOSTILE}")
        assert banner.locator("img").count() == 0 and pat.title() != "1"
        no_sideways_scroll(pat)
    screenshot(pat, "admin-announcement-lobby-360", full_page=False)
    pat.goto(f"/r/{code}")
    expect(pat.locator("#announcement")).to_be_visible()

    # Close the room: the table in Pat's hands says it has closed.
    oona.on("dialog", lambda dialog: dialog.accept())
    oona.get_by_role("button", name=f"Close {code}").click()
    expect(pat.locator("#prompt")).to_have_text("This table has closed.")
    expect(rooms.first).to_have_text(re.compile("No room is open"))

    # Mute Pat everywhere; the audit says who did what.
    oona.get_by_label("Account name or #number").fill("Pat")
    oona.get_by_role("button", name="Mute everywhere").click()
    expect(oona.locator("#admin-muted")).to_have_text("Muted accounts: #2")
    audit = oona.locator("#admin-audit tbody tr")
    expect(audit).to_have_count(4)
    for row, did in zip(("muted", "closed a room", "announced", "made operator"), range(4),
                        strict=True):
        expect(audit.nth(did)).to_contain_text(row)
    expect(audit.nth(0)).to_contain_text("Oona")
    expect(audit.nth(3)).to_contain_text("the host (command line)")

    # Phone first, then the desktops, in each language: nothing scrolls sideways.
    for lang in ("en", "th", "ko"):
        for width, height in SIZES:
            page = oona.context.new_page()
            page.set_viewport_size({"width": width, "height": height})
            page.add_init_script(f"localStorage.setItem('cr.lang', '{lang}')")
            page.goto("/admin")
            expect(page.locator("#admin-audit tbody tr")).to_have_count(4)
            no_sideways_scroll(page)
            form = page.locator("#announce-form").bounding_box()
            assert form is not None and form["x"] >= 0 and form["x"] + form["width"] <= width
            screenshot(page, f"admin-{lang}-{width}x{height}", full_page=width == 360)
            page.close()

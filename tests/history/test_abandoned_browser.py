"""Abandoned games in Chromium (issue 11): the history list and the replay page mark the game
abandoned and say which bot played for whom, in English, Thai and Korean, at a desktop and
a phone width, without sideways scrolling. Screenshots land in test-artifacts/."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser.geometry import header_one_row
from tests.browser.ui import no_sideways_scroll, save_shot
from tests.chromium import chromium, needs_chromium
from tests.serving import served

from .test_abandoned import expire_mid_game

pytestmark = needs_chromium

# What each language shows: the tag, the stand-in of Bo's seat, the replay's line.
EXPECTED = {
    "en-US": ("Abandoned", "Bot (greedy) for Bo", "Abandoned game", "Choose a file…"),
    "th-TH": ("ถูกทิ้งกลางคัน", "บอต (โลภ) เล่นแทน Bo", "เกมที่ถูกทิ้งกลางคัน", "เลือกไฟล์…"),
    "ko-KR": ("중도 방치", "Bo 대신 봇(욕심쟁이)", "중도 방치된 게임", "파일 선택…"),
}


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose history holds one game: Ana and Bo's, expired mid-game while a greedy
    bot was playing for Bo."""
    folder = tmp_path_factory.mktemp("abandoned")
    database = folder / "games.db"
    asyncio.run(expire_mid_game(f"sqlite+aiosqlite:///{database}", folder))
    with served(database) as url:
        yield url


@pytest.fixture(scope="module")
def browser(base_url: str) -> Iterator[object]:
    """After base_url: Playwright's sync API keeps an event loop running in this thread."""
    with chromium() as b:
        yield b


@pytest.mark.parametrize("locale", list(EXPECTED))
def test_history_and_replay_mark_an_abandoned_game_and_its_stand_in(
    browser: object, base_url: str, locale: str
) -> None:
    """Each page is read once, at 1440×900 (the history) or 360×740 (the replay), and then
    looked at in the other width too: what they say does not depend on the width."""
    from playwright.sync_api import expect

    tag, stand_in, heading, choose = EXPECTED[locale]
    context = browser.new_context(  # type: ignore[attr-defined]
        base_url=base_url, locale=locale, viewport={"width": 1440, "height": 900})
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    lang = locale[:2]

    def at(width: int, height: int) -> None:
        page.set_viewport_size({"width": width, "height": height})
        no_sideways_scroll(page)
        if width == 360:
            header_one_row(page)

    try:
        page.goto("/games")
        row = page.locator("tr.abandoned")
        expect(row).to_have_count(1)
        expect(row.locator(".tag-abandoned")).to_have_text(tag)
        names = row.locator(".gp-name")
        expect(names.filter(has_text="Ana")).to_have_count(1)
        expect(row.locator(".gp-stand-in")).to_have_text(stand_in)
        expect(row.locator(".game-end")).not_to_contain_text("abandoned")  # translated
        expect(row.locator(".win-tag")).to_have_count(0)  # no winner
        expect(page.locator(".file-pick")).to_have_text(choose)  # not the browser's words
        for width, height in ((1440, 900), (360, 740)):
            at(width, height)
            save_shot(page, f"history-abandoned-{width}-{lang}", full_page=True)

        row.locator("a.room-link").click()
        expect(page.locator("#rp-ended")).to_be_visible()
        expect(page.locator("#rp-ended")).to_contain_text(heading)
        expect(page.locator("#rp-ended")).to_contain_text(stand_in)
        # Bo's own board says who is playing for him.
        expect(page.locator('.pboard[data-seat="1"] .standin')).to_have_text(stand_in)
        expect(page.locator('.pboard[data-seat="0"] .standin')).to_have_text("")
        page.locator("#rp-last").click()
        expect(page.locator("#rp-ended")).to_contain_text(stand_in)
        page.locator("#nav-menu summary").click()  # the way back, on a phone in the menu
        expect(page.locator("#nav-menu a[href='/games']")).to_be_visible()
        page.keyboard.press("Escape")
        for width, height in ((360, 740), (1440, 900)):
            at(width, height)
            save_shot(page, f"replay-abandoned-{width}-{lang}")
    finally:
        context.close()
    assert errors == []


def test_an_exported_abandoned_game_imports_through_the_page(
    browser: object, base_url: str, tmp_path: Path
) -> None:
    """The translated file button works: the export of the abandoned game, chosen and
    imported on /games, opens as its own replay, still abandoned."""
    import httpx
    from playwright.sync_api import expect

    (game,) = httpx.get(f"{base_url}/api/games").json()["items"]
    export = tmp_path / "abandoned.json"
    export.write_bytes(httpx.get(f"{base_url}/api/games/{game['id']}/export").content)
    context = browser.new_context(base_url=base_url, locale="ko-KR")  # type: ignore[attr-defined]
    context.set_default_timeout(10_000)
    try:
        page = context.new_page()
        page.goto("/games")
        expect(page.locator("#import-name")).to_have_text("선택한 파일 없음")
        junk = tmp_path / "junk.json"
        junk.write_text("not a game")
        page.locator("#import-file").set_input_files(str(junk))
        page.locator("#import-form button[type=submit]").click()
        # Refused in the reader's language, without the server's English sentence.
        expect(page.locator("#import-error")).to_have_text(
            "가져오지 못했습니다: Coffee Rush에서 내보낸 게임 파일이 아닙니다.")
        expect(page.locator("#import-form button[type=submit]")).to_be_enabled()
        page.locator("#import-file").set_input_files(str(export))
        expect(page.locator("#import-name")).to_have_text("abandoned.json")
        page.locator("#import-form button[type=submit]").click()
        page.wait_for_url(re.compile(r"/games/\d+"), timeout=30_000)
        assert re.search(r"/games/(\d+)", page.url).group(1) != str(game["id"])  # type: ignore[union-attr]
        expect(page.locator("#rp-ended")).to_contain_text("Bo 대신 봇(욕심쟁이)")
    finally:
        context.close()

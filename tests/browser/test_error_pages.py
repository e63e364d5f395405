"""Unknown room codes, bad game ids and unknown paths: a browser gets the styled site page
in its language, with the header and a way back to the lobby; an API client keeps JSON."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import expect

from .test_hint import game_with_a_hint
from .ui import screenshot

pytestmark = pytest.mark.browser

MISSING = {
    "/r/ZZZZ-ZZZZ": ("No table with this code", "ไม่มีโต๊ะที่ใช้รหัสนี้", "이 코드의 테이블이 없습니다"),
    "/games/999999": ("No such finished game", "ไม่พบเกมที่จบแล้วนี้", "그런 끝난 게임이 없습니다"),
    "/games/not-a-number": ("No such finished game", "ไม่พบเกมที่จบแล้วนี้", "그런 끝난 게임이 없습니다"),
    "/no/such/page": ("This page does not exist", "ไม่มีหน้านี้", "이 페이지는 없습니다"),
}
LOBBY = {"en": "Back to the lobby", "th": "กลับไปที่ล็อบบี้", "ko": "로비로 돌아가기"}


@pytest.mark.parametrize("path", list(MISSING))
def test_a_browser_gets_a_translated_page_with_a_way_back(new_page, path: str) -> None:  # noqa: ANN001
    for (lang, locale), title in zip((("en", "en-US"), ("th", "th-TH"), ("ko", "ko-KR")),
                                     MISSING[path], strict=True):
        page = new_page(width=360 if lang == "th" else 1366, height=740, locale=locale)
        response = page.goto(path)
        assert response is not None and response.status == 404
        expect(page.get_by_role("heading", level=1)).to_have_text(title)
        expect(page.locator(".topbar .brand")).to_be_visible()  # the site header
        assert "{" not in (page.locator("main").text_content() or "")
        slug = re.sub(r"\W+", "-", path).strip("-")
        screenshot(page, f"error-{slug}-{lang}", full_page=False)
        page.get_by_role("link", name=LOBBY[lang]).click()
        page.wait_for_url(re.compile(r"/$"))


@pytest.mark.parametrize("path", list(MISSING) + ["/api/rooms/ZZZZZZZZ"])
def test_api_clients_keep_json(base_url: str, path: str) -> None:
    for accept in ("application/json", "*/*"):
        res = httpx.get(base_url + path, headers={"Accept": accept})
        assert res.status_code in (404, 422)
        assert res.headers["content-type"].startswith("application/json")
        assert res.json()["error"]["code"] in ("not_found", "malformed")
    # An API path stays JSON even for a browser's Accept header.
    if path.startswith("/api/"):
        res = httpx.get(base_url + path, headers={"Accept": "text/html,*/*;q=0.8"})
        assert res.json()["error"]["code"] == "not_found"


SITE_PAGES = ("/", "/games", "/players", "/rules", "/account", "/tournaments")


def test_a_signed_out_visitor_makes_no_failing_request(new_page, base_url: str) -> None:  # noqa: ANN001
    """Issue 43: a visitor who is not signed in browses the site (the lobby, a table, the
    finished games and a replay, the players, the rules, the tournaments, the account page)
    and no request of theirs fails (no 401 for "who am I", no 404 for a missing asset)."""
    page = new_page(width=1366, height=768)
    failed: list[str] = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.on("requestfailed", lambda r: failed.append(f"failed {r.url}"))
    made = httpx.post(f"{base_url}/api/rooms", json={"players": 2})
    made.raise_for_status()
    finished = httpx.post(f"{base_url}/api/games/import", json=game_with_a_hint(11)[0])
    finished.raise_for_status()
    for path in (*SITE_PAGES, f"/r/{made.json()['code']}", finished.json()["url"]):
        page.goto(path)
        page.wait_for_load_state("networkidle")
    assert failed == [], failed

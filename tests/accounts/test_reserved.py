"""Names that pass for a bot or for the site are nobody's (issue 41.8): guests sat as
"Bot", "Expert bot", "greedy" and "🤖", and accounts were made as "ボット", "机器人",
"Robot", "admin", "system" and "Coffee Rush". A real server refuses them all, at the table
and at sign-up, in several languages and spellings; ordinary names stay free."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .conftest import from_address

ROOT = Path(__file__).resolve().parents[2]

BOTS = ("Bot", "Expert bot", "greedy", "🤖", "ExpertBot", "bot_2", "B0T", "Robot",
        "Roboter 3", "ボット", "ロボット", "机器人", "機器人", "로봇", "봇", "หุ่นยนต์",
        "บอต", "Бот", "робот", "روبوت", "เซียน", "전문가", "욕심쟁이")
SITE = ("admin", "Admin Ana", "system", "Coffee Rush", "CoffeeRush", "coffee rush fan",
        "Moderator", "Staff", "관리자", "운영자", "แอดมิน", "ผู้ดูแล", "管理员", "管理者",
        "システム", "Админ")
FREE = ("Abbott", "Talbot", "Robin", "Botond", "Ana", "Expert Ana", "อลิซ", "앨리스", "さくら")


def _join(url: str, address: str, name: str) -> tuple[int, str]:
    with from_address(url, address) as browser:
        room = browser.post("/api/rooms", json={"players": 4}).json()["code"]
        r = browser.post(f"/api/rooms/{room}/join", json={"name": name})
        return r.status_code, r.json().get("error", {}).get("code", "")


def test_a_guest_may_not_sit_under_a_bots_or_the_sites_name(live_url: str) -> None:
    sat = {name: _join(live_url, f"10.8.0.{i}", name)
           for i, name in enumerate(BOTS + SITE)}
    assert {n: r for n, r in sat.items() if r != (422, "name_reserved")} == {}


def test_a_guest_sits_under_an_ordinary_name(live_url: str) -> None:
    assert {name: _join(live_url, f"10.8.1.{i}", name)[0] for i, name in enumerate(FREE)} \
        == dict.fromkeys(FREE, 200)


def test_no_account_may_take_a_bots_or_the_sites_name(live_url: str) -> None:
    made = {}
    for i, name in enumerate(BOTS + SITE):
        with from_address(live_url, f"10.8.2.{i}") as browser:
            r = browser.post("/api/accounts", json={"name": name, "password": "correct horse"})
            made[name] = (r.status_code, r.json().get("error", {}).get("code", ""))
    assert {n: r for n, r in made.items() if r != (422, "name_reserved")} == {}


def test_the_refusal_says_whether_the_name_passes_for_a_bot_or_the_site(live_url: str) -> None:
    with from_address(live_url, "10.8.3.1") as browser:
        bot = browser.post("/api/accounts", json={"name": "Robot", "password": "correct horse"})
        site = browser.post("/api/accounts", json={"name": "admin", "password": "correct horse"})
    assert "bot" in bot.json()["error"]["message"]
    assert "site" in site.json()["error"]["message"]


def test_the_level_names_reserved_in_thai_and_korean_are_the_tables_own() -> None:
    from server.accounts.reserved import LEVEL_NAMES
    from server.bots.levels import LEVELS

    for lang, names in LEVEL_NAMES.items():
        table = (ROOT / "static" / "js" / "lang" / f"{lang}.js").read_text()
        shown = dict(re.findall(r'"bot\.(\w+)": "([^"]*)"', table))
        assert names == {level: shown[level] for level in LEVELS}, lang


@pytest.mark.parametrize("name", FREE)
def test_ordinary_names_are_not_reserved(name: str) -> None:
    from server.accounts.reserved import reserved
    from server.bots.levels import LEVELS

    assert reserved(name, LEVELS) is None

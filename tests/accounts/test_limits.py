"""Sign-ups and renames are limited (issue 41.7): 30 sign-ups from one address all
succeeded, and one account renamed itself 20 times and held all 20 names from every guest.
On a real server: sign-ups per client address, renames per account, and how many old
names an account holds (its last NAMES_HELD; for NAME_HOLD_DAYS: test_held_names.py)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.serving import served

from .conftest import from_address

LIMITS = {"SIGN_UPS_PER_ADDRESS": "3", "RENAMES_PER_ACCOUNT": "3", "NAMES_HELD": "2"}
NAMES = ("Alice", "Bianca", "Carmen", "Dolores", "Edith", "Fiona", "Greta", "Hanna", "Ines",
         "Julia", "Klara", "Lena", "Mona", "Nina", "Olga", "Paula", "Rita", "Sara", "Tina",
         "Player", "Guest")


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    database = tmp_path_factory.mktemp("limits") / "coffee-rush.db"
    with served(database, BOT_WORKERS="0", FORWARDED_ALLOW_IPS="127.0.0.1", **LIMITS) as u:
        yield u


def _code(r: object) -> str:
    status = r.status_code  # type: ignore[attr-defined]
    return str(status) if status < 400 else r.json()["error"]["code"]  # type: ignore[attr-defined]


def test_one_address_makes_no_more_than_its_limit_of_accounts(url: str) -> None:
    with from_address(url, "10.7.0.1") as browser:
        made = Counter(_code(browser.post("/api/accounts", json={
            "name": f"Signup {i}", "password": "correct horse"})) for i in range(30))
        passkey = browser.post("/api/accounts/passkey/begin", json={"name": "Signup P"})
    assert made == {"201": 3, "too_many_sign_ups": 27}
    assert _code(passkey) == "too_many_sign_ups"
    with from_address(url, "10.7.0.2") as elsewhere:  # another address is not held up
        r = elsewhere.post("/api/accounts", json={"name": "Signup X", "password": "correct horse"})
    assert r.status_code == 201, r.text


def test_an_account_renames_no_more_than_its_limit(url: str) -> None:
    with from_address(url, "10.7.1.1") as browser:
        assert browser.post("/api/accounts", json={"name": "Renamer",
                                                   "password": "correct horse"}).status_code == 201
        renamed = Counter(_code(browser.post("/api/me/name", json={"name": f"Renamer {name}"}))
                          for name in NAMES[:20])
        me = browser.get("/api/me").json()
    assert renamed == {"200": 3, "too_many_renames": 17}
    assert me["name"] == "Renamer Carmen"


def test_an_account_holds_only_its_last_old_names(url: str) -> None:
    with from_address(url, "10.7.2.1") as browser:
        browser.post("/api/accounts", json={"name": "Hold One", "password": "correct horse"})
        for name in ("Hold Two", "Hold Three", "Hold Four"):
            assert browser.post("/api/me/name", json={"name": name}).status_code == 200
        old = [n["name"] for n in browser.get("/api/me/export").json()["old_names"]]
    assert old == ["Hold One", "Hold Two", "Hold Three"]  # the history keeps them all
    with from_address(url, "10.7.2.2") as guest:
        sat = {}
        for name in old:
            room = guest.post("/api/rooms", json={"players": 2}).json()["code"]
            sat[name] = _code(guest.post(f"/api/rooms/{room}/join", json={"name": name}))
    assert sat == {"Hold One": "200", "Hold Two": "name_taken", "Hold Three": "name_taken"}


def test_a_limit_says_what_it_is(url: str) -> None:
    with from_address(url, "10.7.3.1") as browser:
        answers = [browser.post("/api/accounts", json={"name": f"Sayer {i}",
                                                       "password": "correct horse"})
                   for i in range(4)]
    message = answers[-1].json()["error"]["message"]
    assert answers[-1].status_code == 429 and "3" in message and "24 hours" in message


def test_limits_are_documented(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    text = (root / "docs" / "SETTINGS.md").read_text() + (root / ".env.example").read_text()
    for setting in (*LIMITS, "SIGN_UP_WINDOW_HOURS", "RENAME_WINDOW_DAYS", "NAME_HOLD_DAYS"):
        assert text.count(setting) >= 2, setting

"""Profiles, the leaderboard and the export go by account, not by name (issue 41.17), on a
real server (its SQLite file gets finished games written beside it, as the journal would):
"All their games" after a rename shows the account's games, and after a delete the next
holder of the name does not inherit them; the export holds the ratings; /players pages
past 100, a profile shows its rank, and the leaderboard says what it sorts by."""

from __future__ import annotations

import asyncio
import html
import itertools
import re
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from db.helpers import rated_game

from server.db import store as db_store
from server.db.records import SeatRecord
from server.db.session import make_engine, session_factory
from tests.serving import served

from .conftest import from_address

START = datetime(2026, 12, 1, 6, 0, tzinfo=UTC)
CODES = (f"PRF{n:05}" for n in itertools.count())


class Live:
    def __init__(self, url: str, database: Path) -> None:
        self.url, self.database = url, database
        self.addresses = (f"10.17.{n // 250}.{n % 250 + 1}" for n in itertools.count())
        self.browsers: list[httpx.Client] = []

    def browser(self) -> httpx.Client:
        self.browsers.append(from_address(self.url, next(self.addresses)))
        return self.browsers[-1]

    def sign_up(self, name: str) -> tuple[httpx.Client, int]:
        browser = self.browser()
        r = browser.post("/api/accounts", json={"name": name, "password": "correct horse"})
        assert r.status_code == 201, r.text
        return browser, r.json()["id"]

    def play(self, *accounts: int, names: tuple[str, ...] = ()) -> str:
        """A rated game of these accounts, first to last in this order, saved as finished;
        its room code."""
        code = next(CODES)
        asyncio.run(self._play(code, accounts, names))
        return code

    async def _play(self, code: str, accounts: tuple[int, ...], names: tuple[str, ...]) -> None:
        clock = itertools.count()
        game = rated_game(code, lambda: START + timedelta(minutes=next(clock)),
                          [(a, None) for a in accounts], list(range(1, len(accounts) + 1)))
        if names:
            game = replace(game, players=tuple(
                SeatRecord(p.seat, names[p.seat], account_id=p.account_id)
                for p in game.players))
        engine = make_engine(f"sqlite+aiosqlite:///{self.database}")
        try:
            async with session_factory(engine)() as session, session.begin():
                await db_store.save_finished_game(session, game)
        finally:
            await engine.dispose()


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    database = tmp_path_factory.mktemp("profiles") / "coffee-rush.db"
    with served(database, BOT_WORKERS="0", FORWARDED_ALLOW_IPS="127.0.0.1",
                NAME_HOLD_DAYS="0", SIGN_UPS_PER_ADDRESS="1000",
                RATED_GAMES_TO_RANK="1") as url:
        live = Live(url, database)
        yield live
        for browser in live.browsers:
            browser.close()


def _all_games_link(page: str) -> str:
    found = re.search(r'<a href="([^"]*)" data-i18n="profile.allGames"', page)
    assert found, "no 'All their games' link"
    return html.unescape(found.group(1))


def test_all_their_games_after_a_rename_are_the_accounts(live: Live) -> None:
    ana, ana_id = live.sign_up("Anabel")
    _, bea_id = live.sign_up("Beatrix")
    live.play(ana_id, bea_id, names=("Anabel", "Beatrix"))
    assert ana.post("/api/me/name", json={"name": "Annabella"}).status_code == 200
    visitor = live.browser()
    link = _all_games_link(visitor.get("/u/Annabella").text)
    games = visitor.get("/api/games", params=dict(httpx.URL(link).params)).json()
    assert [[p["name"] for p in g["players"]] for g in games["items"]] == [
        ["Anabel", "Beatrix"]]


def test_the_next_holder_of_a_deleted_accounts_name_inherits_none_of_its_games(
        live: Live) -> None:
    gone, gone_id = live.sign_up("Cordelia")
    _, dora_id = live.sign_up("Dorothea")
    live.play(gone_id, dora_id, names=("Cordelia", "Dorothea"))
    assert gone.post("/api/me/delete", json={"name": "Cordelia"}).status_code == 200
    heir, heir_id = live.sign_up("Cordelia")  # NAME_HOLD_DAYS=0 on this server
    theirs = live.play(dora_id, heir_id, names=("Dorothea", "Cordelia"))
    link = _all_games_link(heir.get("/u/Cordelia").text)
    games = heir.get("/api/games", params=dict(httpx.URL(link).params)).json()["items"]
    assert [g["room_code"] for g in games] == [theirs]


def test_the_export_holds_the_current_rating_and_each_games(live: Live) -> None:
    eve, eve_id = live.sign_up("Evelina")
    _, fay_id = live.sign_up("Fayette")
    live.play(eve_id, fay_id)
    live.play(fay_id, eve_id)
    document = eve.get("/api/me/export").json()
    rating = document["rating"]
    assert rating["rated_games"] == 2 and {"value", "spread", "mu", "sigma"} <= set(rating)
    changes = [g["rating"] for g in document["games"]]
    assert changes[0]["after"] == changes[1]["before"]
    assert changes[1]["after"]["mu"] == rating["mu"]
    assert changes[0]["after"]["value"] > changes[0]["before"]["value"]  # she won the first


def test_players_pages_past_100_and_a_profile_shows_its_rank(live: Live) -> None:
    ids = [live.sign_up(f"Ranked {n:03}")[1] for n in range(105)]
    for a, b in zip(ids[::2], ids[1::2], strict=False):
        live.play(a, b)
    visitor = live.browser()
    first = visitor.get("/api/players").json()
    second = visitor.get("/api/players", params={"page": 2}).json()
    page = visitor.get("/players").text
    assert 'rel="next"' in page and 'data-i18n="players.sortedBy"' in page
    everyone = first["players"] + second["players"]
    assert first["total"] == len(everyone) >= 104 and len(first["players"]) == 100
    assert [p["place"] for p in everyone] == list(range(1, len(everyone) + 1))
    last = everyone[-1]
    profile = visitor.get(f"/api/players/{last['name']}").json()
    assert profile["rank"] == last["place"]
    assert f"#{last['place']}" in visitor.get(f"/u/{last['name']}").text

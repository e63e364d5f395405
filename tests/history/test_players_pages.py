"""The leaderboard (/players) and profiles (/u/{name}) render from the database, as pages
and under /api/players; an unknown or deleted player is a "not here" page."""

from __future__ import annotations

import asyncio
import html
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from fastapi.testclient import TestClient
from sqlalchemy import update

from server.db import store
from server.db.models import Account
from server.db.session import make_engine, session_factory
from tests.db.helpers import accounts, new_room, rated_game


def _clock() -> Callable[[], datetime]:
    now = [datetime(2026, 3, 1, tzinfo=UTC)]

    def tick() -> datetime:
        now[0] += timedelta(minutes=1)
        return now[0]
    return tick


async def _fill(url: str) -> None:
    """Ana beats Ben three times, Ben beats the expert bot once; Zed was deleted."""
    engine = make_engine(url)
    sessions = session_factory(engine)
    clock = _clock()
    try:
        ana, ben, zed = await accounts(sessions, "Ana", "Ben", "Zed")
        games = [rated_game(f"PAGE000{i}", clock, [(ana, None), (ben, None)], [1, 2])
                 for i in range(3)]
        games.append(rated_game("PAGE0009", clock, [(ben, None), (None, "expert")], [1, 2]))
        games.append(rated_game("PAGEZED1", clock, [(zed, None), (None, "random")], [1, 2]))
        async with sessions.begin() as s:
            for g in games:
                await store.create_room(s, new_room(g.room_code, g.started_at,
                                                    players=len(g.players)))
                await store.save_finished_game(s, g)
            await s.execute(update(Account).where(Account.id == zed)
                            .values(deleted_at=clock()))
    finally:
        await engine.dispose()


def test_the_leaderboard_ranks_players_with_enough_rated_games(
    make_client: Callable[[str | None], TestClient], empty_db_url: str
) -> None:
    asyncio.run(_fill(empty_db_url))
    api = make_client(empty_db_url)
    board = api.get("/api/players").json()
    assert board["min_games"] == 3
    assert [(p["place"], p["name"], p["games"]) for p in board["players"]] == [
        (1, "Ana", 3), (2, "Ben", 4)]
    assert {b["level"] for b in board["bots"]} == {"random", "greedy", "strong", "expert"}
    page = html.unescape(api.get("/players").text)
    assert 'href="/u/Ana"' in page and 'href="/u/Ben"' in page and "Zed" not in page
    assert "/static/js/account/players.js" in page


def test_a_profile_shows_rating_over_time_record_and_recent_games(
    make_client: Callable[[str | None], TestClient], empty_db_url: str
) -> None:
    asyncio.run(_fill(empty_db_url))
    api = make_client(empty_db_url)
    ana = api.get("/api/players/Ana").json()
    assert ana["rated_games"] == 3 and len(ana["history"]) == 3
    assert ana["rating"]["value"] > 1500 and ana["rating"]["spread"] > 0
    assert ana["by_count"] == [{"players": 2, "games": 3, "wins": 3}]
    assert ana["recent"]["total"] == 3
    page = api.get("/u/Ana").text
    assert "<polyline" in page and "<polygon" in page  # the chart and its band
    assert page.count('class="game-link"') == 3
    assert api.get("/api/players/Zed").status_code == 404  # deleted
    gone = api.get("/u/Nobody", headers={"accept": "text/html"})
    assert gone.status_code == 404 and 'data-kind="player"' in gone.text


def test_without_a_database_the_pages_say_so(
    make_client: Callable[[str | None], TestClient]
) -> None:
    api = make_client(None)
    assert api.get("/api/players").status_code == 503


def test_the_final_screen_learns_how_a_game_moved_the_ratings(
    make_client: Callable[[str | None], TestClient], empty_db_url: str
) -> None:
    asyncio.run(_fill(empty_db_url))
    api = make_client(empty_db_url)
    moved = api.get("/api/rooms/PAGE-0009/ratings").json()  # Ben beat the expert
    [ben] = moved["players"]
    assert (ben["seat"], ben["name"]) == (0, "Ben") and ben["change"] > 0
    assert ben["after"] - ben["before"] == ben["change"]
    assert api.get("/api/rooms/NOPE0000/ratings").status_code == 404


def test_the_games_list_links_signed_in_players_to_their_profile(
    make_client: Callable[[str | None], TestClient], empty_db_url: str
) -> None:
    asyncio.run(_fill(empty_db_url))
    api = make_client(empty_db_url)
    page = html.unescape(api.get("/games").text)
    assert page.count('href="/u/Ana"') == 3 and page.count('href="/u/Ben"') == 4
    assert "/u/Zed" not in page  # deleted: the game stays, no profile to link to
    listed = api.get("/api/games").json()["items"]
    assert {p["profile"] for g in listed for p in g["players"]} == {"Ana", "Ben", None}


def test_the_readme_publishes_the_bots_ratings_the_server_uses() -> None:
    from pathlib import Path

    from server.db.ratings import BOT_RATINGS, shown

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    published = ", ".join(f"{level} {shown(mu)}" for level, (mu, _) in BOT_RATINGS.items())
    assert f"({published}, from the tournaments" in readme.replace("\n", " ")

"""Ratings (server.db.ratings): which finished games move ratings, by how much, written once
with the game, recomputable from history; the leaderboard and profiles read them. On
SQLite and PostgreSQL, through the store and through the live journal's writer."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from server.accounts.names import name_key
from server.cli import main
from server.db import profiles, ratings, store
from server.db.journal import Journal
from server.db.migrate import upgrade_async
from server.db.models import Account, GameRating, PlayerRating, utcnow
from server.db.records import FinishedGame
from server.db.session import make_engine, session_factory

from .conftest import UNHURRIED, Clock
from .helpers import accounts, new_room, rated_game

pytestmark = pytest.mark.asyncio

Sessions = async_sessionmaker[AsyncSession]


async def save(sessions: Sessions, g: FinishedGame) -> int:
    async with sessions.begin() as s:
        await store.create_room(s, new_room(g.room_code, g.started_at,
                                            players=len(g.players)))
        return await store.save_finished_game(s, g)


async def current(sessions: Sessions, account: int) -> tuple[float, float, int] | None:
    async with sessions() as s:
        row = await s.get(PlayerRating, account)
        return None if row is None else (row.mu, row.sigma, row.games)


async def test_a_rated_game_moves_both_accounts_once(engine: AsyncEngine, clock: Clock) -> None:
    sessions = session_factory(engine)
    ana, ben = await accounts(sessions, "Ana", "Ben")
    won = rated_game("RATE0001", clock, [(ana, None), (ben, None)], [1, 2])
    game_id = await save(sessions, won)
    async with sessions.begin() as s:  # saved again (a replayed journal): rated once
        assert await store.save_finished_game(s, won) == game_id
    a, b = await current(sessions, ana), await current(sessions, ben)
    assert a is not None and b is not None
    mu0, sigma0 = ratings.START
    assert a[0] > mu0 > b[0] and a[1] < sigma0 and b[1] < sigma0  # surer of both
    assert a[2] == b[2] == 1
    async with sessions() as s:
        rows = (await s.scalars(select(GameRating).order_by(GameRating.seat))).all()
    assert [(r.game_id, r.seat, r.account_id) for r in rows] == [(game_id, 0, ana),
                                                                  (game_id, 1, ben)]
    assert (rows[0].mu_before, rows[0].mu_after) == (mu0, a[0])


async def test_tied_players_share_their_place(engine: AsyncEngine, clock: Clock) -> None:
    sessions = session_factory(engine)
    ana, ben = await accounts(sessions, "Ana", "Ben")
    await save(sessions, rated_game("TIE00001", clock, [(ana, None), (ben, None)], [1, 1]))
    a, b = await current(sessions, ana), await current(sessions, ben)
    assert a is not None and b is not None
    assert a[0] == pytest.approx(b[0]) and a[0] == pytest.approx(ratings.START[0])


async def test_bots_keep_their_published_rating(engine: AsyncEngine, clock: Clock) -> None:
    """Beating the expert is worth more than beating random; the bots never move."""
    sessions = session_factory(engine)
    ana, ben = await accounts(sessions, "Ana", "Ben")
    await save(sessions, rated_game("BOTS0001", clock, [(ana, None), (None, "expert")], [1, 2]))
    await save(sessions, rated_game("BOTS0002", clock, [(ben, None), (None, "random")], [1, 2]))
    a, b = await current(sessions, ana), await current(sessions, ben)
    assert a is not None and b is not None and a[0] > b[0] > ratings.START[0]
    async with sessions() as s:
        assert {r.account_id for r in await s.scalars(select(GameRating))} == {ana, ben}


@pytest.mark.parametrize("why", ["guest", "stand_in", "rated_off", "abandoned", "one_twice"])
async def test_games_that_are_not_rated(engine: AsyncEngine, clock: Clock, why: str) -> None:
    sessions = session_factory(engine)
    ana, ben = await accounts(sessions, "Ana", "Ben")
    g = rated_game("NOTR" + why[:4].upper(), clock, [(ana, None), (ben, None), (None, "greedy")],
             [1, 2, 3])
    if why == "guest":
        g = replace(g, players=(g.players[0], replace(g.players[1], account_id=None),
                                g.players[2]))
    elif why == "stand_in":  # Ben left and a bot finished his game
        g = replace(g, players=(g.players[0], replace(g.players[1], stand_in="greedy"),
                                g.players[2]))
    elif why == "rated_off":
        g = replace(g, options={**g.options, "rated": False})
    elif why == "abandoned":
        g = replace(g, result={**g.result, "reason": "abandoned"})
    else:
        g = replace(g, players=(g.players[0], replace(g.players[1], account_id=ana),
                                g.players[2]))
    await save(sessions, g)
    assert await current(sessions, ana) is None and await current(sessions, ben) is None


async def test_recompute_gives_the_same_ratings(engine: AsyncEngine, clock: Clock) -> None:
    sessions = session_factory(engine)
    ids = await accounts(sessions, "Ana", "Ben", "Cleo")
    ana, ben, cleo = ids
    rosters = [([(ana, None), (ben, None)], [1, 2]),
               ([(ben, None), (cleo, None), (None, "strong")], [2, 1, 3]),
               ([(cleo, None), (ana, None), (ben, None), (None, "greedy")], [1, 2, 2, 4]),
               ([(ana, None), (ben, None)], [2, 1])]
    for i, (roster, places) in enumerate(rosters):
        await save(sessions, rated_game(f"RECO000{i}", clock, roster, places))
    before = [await current(sessions, a) for a in ids]
    async with sessions.begin() as s:
        assert await ratings.recompute(s) == 4
    after = [await current(sessions, a) for a in ids]
    for b, a in zip(before, after, strict=True):
        assert b is not None and a is not None
        assert a == pytest.approx(b)


async def test_the_writer_rates_a_game_it_saves(
    engine: AsyncEngine, tmp_path: Path, clock: Clock
) -> None:
    """The live path: the journal's writer (on SQLite its short way hands rated games to the
    store) saves and rates the game in one transaction."""
    sessions = session_factory(engine)
    ana, ben = await accounts(sessions, "Ana", "Ben")
    g = rated_game("LIVE0001", clock, [(ana, None), (ben, None)], [2, 1])
    journal = Journal(engine, tmp_path / "fallback.jsonl", clock=clock, write_timeout=UNHURRIED)
    await journal.start()
    await journal.room_created(new_room(g.room_code, clock(), players=2))
    await journal.game_finished(g)
    await journal.stop()
    a, b = await current(sessions, ana), await current(sessions, ben)
    assert a is not None and b is not None and b[0] > a[0]


async def test_leaderboard_and_profile(engine: AsyncEngine, clock: Clock) -> None:
    sessions = session_factory(engine)
    ana, ben, gone = await accounts(sessions, "Ana", "Ben", "Gone")
    for i in range(3):
        await save(sessions, rated_game(f"BORD000{i}", clock, [(ana, None), (ben, None)], [1, 2]))
    await save(sessions, rated_game("BORD0009", clock, [(gone, None), (None, "random")], [1, 2]))
    async with sessions.begin() as s:
        account = await s.get(Account, gone)
        assert account is not None
        account.deleted_at = utcnow()
    async with sessions() as s:
        board = await profiles.leaderboard(s, min_games=3)
        assert [(p.place, p.name, p.games) for p in board] == [(1, "Ana", 3), (2, "Ben", 3)]
        assert await profiles.leaderboard(s, min_games=4) == ()
        assert await profiles.account_named(s, name_key("Gone")) is None  # deleted
        found = await profiles.account_named(s, name_key("ANA"))
        assert found is not None
        p = await profiles.profile(s, found, min_games=3)
        assert p.rated_games == 3 and len(p.history) == 3 and p.rank == 1
        assert [h.mu for h in p.history] == sorted(h.mu for h in p.history)  # won each
        assert p.by_count == (profiles.CountRecord(players=2, games=3, wins=3),)
        recent = await store.list_games(s, account_id=ana)
        assert recent.total == 3


async def test_the_host_recomputes_ratings_from_the_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`coffee-rush ratings recompute` on DATABASE_URL: the same ratings again."""
    url = f"sqlite+aiosqlite:///{tmp_path}/host.db"
    await upgrade_async(url)
    engine = make_engine(url)
    sessions = session_factory(engine)
    try:
        ana, ben = await accounts(sessions, "Ana", "Ben")
        await save(sessions, rated_game("CLI00001", Clock(), [(ana, None), (ben, None)], [1, 2]))
        before = await current(sessions, ana)
        monkeypatch.setenv("DATABASE_URL", url)
        assert await asyncio.to_thread(main, ["ratings", "recompute"]) == 0
        assert "rated games: 1," in capsys.readouterr().out
        assert await current(sessions, ana) == before
    finally:
        await engine.dispose()

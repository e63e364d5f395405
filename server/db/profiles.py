"""What the profile pages and the leaderboard read: an account's games and ratings."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Integer, cast, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from .models import ABANDONED, Account, Game, GamePlayer, GameRating, PlayerRating
from .ratings import conservative


@dataclass(frozen=True, slots=True)
class RatingPoint:
    game_id: int
    at: datetime
    mu: float
    sigma: float


@dataclass(frozen=True, slots=True)
class CountRecord:
    """An account's finished games of one player count, and how many it won."""

    players: int
    games: int
    wins: int


@dataclass(frozen=True, slots=True)
class Profile:
    account_id: int
    name: str
    joined: datetime
    rating: tuple[float, float] | None  # (mu, sigma); None before the first rated game
    rated_games: int
    history: tuple[RatingPoint, ...]  # oldest first
    by_count: tuple[CountRecord, ...]  # by player count, 2 to 4
    rank: int | None  # its place on the leaderboard; None: not ranked (too few rated games)


@dataclass(frozen=True, slots=True)
class Leader:
    place: int
    name: str
    mu: float
    sigma: float
    games: int


async def account_named(session: AsyncSession, key: str) -> Account | None:
    """The live (not deleted, not disabled) account whose name key (server.accounts.names)
    is `key`."""
    return await session.scalar(select(Account).where(
        Account.name_key == key, Account.deleted_at.is_(None), Account.disabled.is_(False)))


async def profile(session: AsyncSession, account: Account, min_games: int) -> Profile:
    current = await session.get(PlayerRating, account.id)
    history = (await session.execute(
        select(GameRating.game_id, Game.ended_at, GameRating.mu_after, GameRating.sigma_after)
        .join(Game, Game.id == GameRating.game_id)
        .where(GameRating.account_id == account.id)
        .order_by(Game.ended_at, Game.id)
    )).all()
    return Profile(
        account_id=account.id, name=account.name, joined=account.created_at,
        rating=None if current is None else (current.mu, current.sigma),
        rated_games=0 if current is None else current.games,
        history=tuple(RatingPoint(*row) for row in history),
        by_count=await _by_count(session, account.id),
        rank=await rank_of(session, account.id, min_games),
    )


async def _by_count(session: AsyncSession, account_id: int) -> tuple[CountRecord, ...]:
    """Games played and won per player count (abandoned games left out)."""
    seats = (select(GamePlayer.game_id, func.count().label("n"))
             .group_by(GamePlayer.game_id).subquery())
    rows = (await session.execute(
        select(seats.c.n, func.count(), func.sum(cast(GamePlayer.winner, Integer)))
        .select_from(GamePlayer)
        .join(seats, seats.c.game_id == GamePlayer.game_id)
        .join(Game, Game.id == GamePlayer.game_id)
        .where(GamePlayer.account_id == account_id,
               func.coalesce(Game.end_reason, "") != ABANDONED)
        .group_by(seats.c.n).order_by(seats.c.n)
    )).all()
    return tuple(CountRecord(int(n), int(games), int(wins or 0)) for n, games, wins in rows)


def _ranked(min_games: int) -> Any:
    """The ranked: live accounts with at least `min_games` rated games."""
    return (select(Account.id, Account.name, PlayerRating.mu, PlayerRating.sigma,
                   PlayerRating.games)
            .join(Account, Account.id == PlayerRating.account_id)
            .where(PlayerRating.games >= min_games, Account.deleted_at.is_(None),
                   Account.disabled.is_(False)))


async def leaderboard(
    session: AsyncSession, min_games: int, limit: int = 100, offset: int = 0
) -> tuple[Leader, ...]:
    """Live accounts with at least `min_games` rated games, surest-best first (mu - 2 sigma:
    a few lucky games do not put a newcomer on top; equal ones by name), `limit` of them
    from place `offset` + 1."""
    rows = (await session.execute(
        _ranked(min_games)
        .order_by(conservative(PlayerRating.mu, PlayerRating.sigma).desc(), Account.name)
        .limit(limit).offset(offset)
    )).all()
    return tuple(Leader(place, r.name, r.mu, r.sigma, r.games)
                 for place, r in enumerate(rows, start=offset + 1))


async def ranked_count(session: AsyncSession, min_games: int) -> int:
    return await session.scalar(select(func.count()).select_from(
        _ranked(min_games).subquery())) or 0


async def rank_of(session: AsyncSession, account_id: int, min_games: int) -> int | None:
    """The account's place on the leaderboard (as `leaderboard` orders it), or None when it
    is not ranked."""
    ranked = _ranked(min_games).subquery()
    me = (await session.execute(select(ranked).where(ranked.c.id == account_id))).first()
    if me is None:
        return None
    mine = conservative(ranked.c.mu, ranked.c.sigma)
    score = select(conservative(ranked.c.mu, ranked.c.sigma)).where(
        ranked.c.id == account_id).scalar_subquery()
    ahead = await session.scalar(select(func.count()).select_from(ranked).where(
        (mine > score) | ((mine == score) & (ranked.c.name < me.name))))
    return (ahead or 0) + 1


@dataclass(frozen=True, slots=True)
class RatingChange:
    seat: int
    name: str  # the account's name now
    before: tuple[float, float]
    after: tuple[float, float]


async def rating_changes(session: AsyncSession, game_id: int) -> tuple[RatingChange, ...]:
    """How one game moved its accounts' ratings, by seat (none: it was not rated)."""
    rows = (await session.execute(
        select(GameRating, Account.name).join(Account, Account.id == GameRating.account_id)
        .where(GameRating.game_id == game_id).order_by(GameRating.seat)
    )).all()
    return tuple(RatingChange(r.seat, name, (r.mu_before, r.sigma_before),
                              (r.mu_after, r.sigma_after)) for r, name in rows)

"""Ratings: who is rated in a finished game, and how their ratings move.

OpenSkill's Plackett-Luce model (Weng and Lin, 2011) rates free-for-all games of any number
of players; tied players share a place. A game is rated when its room allowed it (the room
option `rated`), it ended by the rules (not abandoned), every human seat was held by a
signed-in account at the end (no bot standing in for anyone) and no account held two seats.
Bots take part with the fixed ratings published in BOT_RATINGS, so beating a level means the
same every time; only the accounts' ratings move.

Each rated game stores every account's rating before and after it (`game_ratings`), and the
current one (`player_ratings`) is the last of those, so the whole table can be recomputed
from history in game order (`recompute`). Rating rows are written in the game's own
transaction: a game is saved and rated once, or neither.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from openskill.models import PlackettLuce
from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import selectinload

from .models import ABANDONED, Game, GameRating, PlayerRating
from .records import FinishedGame

MODEL = PlackettLuce()
START = (MODEL.mu, MODEL.sigma)  # a new account's rating: mu 25, sigma 25/3

# The bots' fixed ratings (mu, sigma), from the 2-player tournaments in docs/BOTS.md: the
# model's chance that A beats B is 1 / (1 + exp(-(mu_A - mu_B) / c)), c = sqrt(2 beta^2 +
# 2 sigma^2) = 6.06, so a win rate p sets mu_A - mu_B = c ln(p / (1 - p)). Greedy is the
# anchor, a new player's 25; it beats random in 200 of 200 games (the interval's low end,
# 98%, gives 23.6 points); expert beats greedy in 78.3% (+7.8); strong beats greedy in 58.3%
# (+2.0).
BOT_RATINGS: dict[str, tuple[float, float]] = {
    "random": (1.5, 1.0),
    "greedy": (25.0, 1.0),
    "strong": (27.0, 1.0),
    "expert": (32.8, 1.0),
}

# Shown to players as one number on a familiar scale: a new player is 1500 ± 1000
# (two standard deviations).
SCALE = 60


def shown(mu: float) -> int:
    return round(mu * SCALE)


def shown_spread(sigma: float) -> int:
    """The ± shown beside a rating: two standard deviations."""
    return round(2 * sigma * SCALE)


def conservative(mu: Any, sigma: Any) -> Any:
    """The rating the leaderboard ranks by: fairly sure to be at least this good (of numbers,
    or of columns in a query)."""
    return mu - 2 * sigma


@dataclass(frozen=True, slots=True)
class Entrant:
    """One seat of a rated game: an account (moving rating) or a bot (fixed)."""

    seat: int
    place: int
    account_id: int | None
    mu: float
    sigma: float


class Seated(Protocol):
    """A seat of a finished game as the rating needs it (a SeatRecord or a GamePlayer)."""

    @property
    def seat(self) -> int: ...
    @property
    def bot(self) -> str | None: ...
    @property
    def stand_in(self) -> str | None: ...
    @property
    def account_id(self) -> int | None: ...


def rated_accounts(
    options: Mapping[str, Any], reason: str | None, players: Iterable[Seated]
) -> dict[int, int] | None:
    """{seat: account id} of the accounts a finished game rates, or None if it is not rated."""
    if options.get("rated", True) is not True or options.get("lesson") or reason == ABANDONED:
        return None  # a lesson's deal is known in advance: never rated (R-SETUP-L)
    seats: dict[int, int] = {}
    for p in players:
        if p.bot is not None:
            if p.bot not in BOT_RATINGS:
                return None
            continue
        if p.account_id is None or p.stand_in is not None:
            return None
        seats[p.seat] = p.account_id
    if not seats or len(set(seats.values())) != len(seats):
        return None
    return seats


def is_rated(game: FinishedGame) -> bool:
    return rated_accounts(game.options, game.result.get("reason"), game.players) is not None


def new_ratings(entrants: Sequence[Entrant]) -> dict[int, tuple[float, float]]:
    """{seat: (mu, sigma) after the game} for the accounts among `entrants` (bots keep
    theirs). Places may tie; a lower place is better."""
    teams = [[MODEL.rating(mu=e.mu, sigma=e.sigma)] for e in entrants]
    rated = MODEL.rate(teams, ranks=[float(e.place) for e in entrants])
    return {e.seat: (team[0].mu, team[0].sigma)
            for e, team in zip(entrants, rated, strict=True) if e.account_id is not None}


async def rate_game(session: AsyncSession, game_id: int, game: FinishedGame) -> None:
    """Rate a game just saved (in its transaction); nothing if it is not rated."""
    places = game.result["places"]
    await _rate(session, game_id, game.options, game.result.get("reason"),
                [(p, places[p.seat]) for p in game.players], game.ended_at)


async def _rate(
    session: AsyncSession, game_id: int, options: Mapping[str, Any], reason: str | None,
    players: Sequence[tuple[Seated, int]], at: datetime,
) -> bool:
    """Rate one game from its seats and their places; False if it is not rated. Uses only
    what the SQLite writer's session facade offers (server.db.sqlite_writer)."""
    accounts = rated_accounts(options, reason, (p for p, _ in players))
    if accounts is None:
        return False
    # FOR UPDATE (PostgreSQL): two games ending at once must not both start from one
    # rating; the second waits for the first's transaction. (SQLite has one writer.)
    rows = {r.account_id: r for r in await session.scalars(
        select(PlayerRating).where(PlayerRating.account_id.in_(sorted(accounts.values())))
        .with_for_update())}
    entrants = []
    for p, place in players:
        if p.bot is not None:
            entrants.append(Entrant(p.seat, place, None, *BOT_RATINGS[p.bot]))
            continue
        row = rows.get(accounts[p.seat])
        mu, sigma = START if row is None else (row.mu, row.sigma)
        entrants.append(Entrant(p.seat, place, accounts[p.seat], mu, sigma))
    new: list[Any] = []
    for seat, (mu, sigma) in new_ratings(entrants).items():
        e = next(e for e in entrants if e.seat == seat)
        account = accounts[seat]
        new.append(GameRating(game_id=game_id, seat=seat, account_id=account,
                              mu_before=e.mu, sigma_before=e.sigma,
                              mu_after=mu, sigma_after=sigma))
        row = rows.get(account)
        if row is None:
            new.append(PlayerRating(account_id=account, mu=mu, sigma=sigma, games=1,
                                    updated_at=at))
        else:
            row.mu, row.sigma, row.games, row.updated_at = mu, sigma, row.games + 1, at
    session.add_all(new)
    await session.flush()
    return True


async def recompute(session: AsyncSession) -> int:
    """Rate every stored game again from the start, in the order they ended: after a change
    of BOT_RATINGS, or of the schema (ratings are derived from `games` and `game_players`).
    Returns the number of games rated."""
    await session.execute(delete(GameRating))
    await session.execute(delete(PlayerRating))
    games = (await session.scalars(
        select(Game).options(selectinload(Game.players)).order_by(Game.ended_at, Game.id)
    )).all()
    count = 0
    for game in games:
        players = [(p, p.place) for p in game.players]
        count += await _rate(session, game.id, game.options, game.end_reason, players,
                             game.ended_at)
    return count

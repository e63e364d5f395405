"""Signed-in players in public: the leaderboard (/players) and profiles (/u/{name}), as
pages and under /api/players. Ratings come from server.db.ratings."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import HTMLResponse, Response

from server.accounts.names import name_key
from server.db import profiles, store
from server.db.models import NAME
from server.db.profiles import Profile, RatingPoint
from server.db.ratings import BOT_RATINGS, shown, shown_spread
from server.history.present import page_json
from server.rooms import RoomError

from .error_pages import error_page
from .errors import EVERY_ROUTE, answers, page_not_found
from .games import DB, Sessions

router = APIRouter(responses={**EVERY_ROUTE, **answers(503)})

Name = Annotated[str, Path(min_length=1, max_length=NAME, description="a player's name")]
RoomCode = Annotated[str, Path(min_length=8, max_length=9, description="a room code")]
RECENT = 10  # games listed on a profile
PER_PAGE = 100  # players per leaderboard page
Page = Annotated[int, Query(ge=1, le=1_000_000)]


def _rating(mu: float, sigma: float) -> dict[str, Any]:
    return {"value": shown(mu), "spread": shown_spread(sigma), "mu": mu, "sigma": sigma}


def leaders_json(leaders: tuple[profiles.Leader, ...], min_games: int, page: int,
                 total: int) -> dict[str, Any]:
    return {
        "min_games": min_games,
        "page": page,
        "pages": max(1, -(-total // PER_PAGE)),
        "total": total,
        "players": [{"place": p.place, "name": p.name, "games": p.games,
                     **_rating(p.mu, p.sigma)} for p in leaders],
        "bots": [{"level": level, **_rating(mu, sigma)}
                 for level, (mu, sigma) in BOT_RATINGS.items()],
    }


def profile_json(p: Profile, recent: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": p.account_id,
        "name": p.name,
        "rank": p.rank,
        "joined": p.joined.isoformat(),
        "rating": None if p.rating is None else _rating(*p.rating),
        "rated_games": p.rated_games,
        "history": [{"game": h.game_id, "at": h.at.isoformat(), **_rating(h.mu, h.sigma)}
                    for h in p.history],
        "by_count": [{"players": c.players, "games": c.games, "wins": c.wins}
                     for c in p.by_count],
        "recent": recent,
    }


def rating_chart(history: tuple[RatingPoint, ...], width: int = 480,
                 height: int = 160) -> dict[str, Any] | None:
    """The profile's chart as SVG coordinates: the rating after each rated game (a line)
    inside its ± two standard deviations (a band). None with fewer than two points."""
    if len(history) < 2:
        return None
    values = [shown(h.mu) for h in history]
    # The line decides the scale; the band (± two standard deviations, wide at first) is
    # cut at the chart's edges, or it would flatten the line.
    top, bottom = max(values) + 150, min(values) - 150
    highs = [min(shown(h.mu + 2 * h.sigma), top) for h in history]
    lows = [max(shown(h.mu - 2 * h.sigma), bottom) for h in history]
    pad = 8

    def x(i: int) -> float:
        return round(pad + i * (width - 2 * pad) / (len(history) - 1), 1)

    def y(v: int) -> float:
        return round(pad + (top - v) * (height - 2 * pad) / max(top - bottom, 1), 1)

    line = " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(values))
    band = " ".join([f"{x(i)},{y(v)}" for i, v in enumerate(highs)]
                    + [f"{x(i)},{y(v)}" for i, v in reversed(list(enumerate(lows)))])
    return {"width": width, "height": height, "line": line, "band": band,
            "top": top, "bottom": bottom, "last": (x(len(values) - 1), y(values[-1]))}


async def _profile(db: Sessions, name: str,
                   min_games: int) -> tuple[Profile, dict[str, Any]] | None:
    async with db() as session:
        account = await profiles.account_named(session, name_key(name))
        if account is None:
            return None
        found = await profiles.profile(session, account, min_games)
        recent = await store.list_games(session, 1, RECENT, account_id=account.id)
    return found, page_json(recent)


def _min_games(request: Request) -> int:
    return int(request.app.state.settings.RATED_GAMES_TO_RANK)


# --- the API -------------------------------------------------------------------------------


async def _board(db: Sessions, least: int, page: int) -> dict[str, Any]:
    async with db() as session:
        leaders = await profiles.leaderboard(session, least, PER_PAGE, (page - 1) * PER_PAGE)
        total = await profiles.ranked_count(session, least)
    return leaders_json(leaders, least, page, total)


@router.get("/api/players")
async def leaderboard(request: Request, db: DB, page: Page = 1) -> dict[str, Any]:
    """Signed-in players with at least RATED_GAMES_TO_RANK rated games, best first (ranked
    by rating minus two standard deviations, equal ones by name), 100 a page."""
    return await _board(db, _min_games(request), page)


@router.get("/api/players/{name}", responses=answers(404))
async def player(name: Name, request: Request, db: DB) -> dict[str, Any]:
    """A signed-in player's rating over time, place on the leaderboard (`rank`; null: not
    ranked), record per player count and recent games."""
    found = await _profile(db, name, _min_games(request))
    if found is None:
        raise RoomError("not_found", f"there is no player {name!r}", 404)
    return profile_json(*found)


@router.get("/api/rooms/{code}/ratings", responses=answers(404))
async def room_ratings(code: RoomCode, db: DB) -> dict[str, Any]:
    """How the game played in room `code` moved its players' ratings (the final screen
    asks): 404 until the game is stored, an empty list if it was not rated."""
    async with db() as session:
        game_id = await store.game_id_of_room(session, code.replace("-", "").upper())
        if game_id is None:
            raise RoomError("not_found", f"no finished game of room {code} is stored", 404)
        changes = await profiles.rating_changes(session, game_id)
    return {"game": game_id, "players": [
        {"seat": c.seat, "name": c.name, "before": shown(c.before[0]),
         "after": shown(c.after[0]), "change": shown(c.after[0]) - shown(c.before[0])}
        for c in changes]}


# --- the pages -----------------------------------------------------------------------------


@router.get("/players", response_class=HTMLResponse)
async def players_page(request: Request, db: DB, page: Page = 1) -> Response:
    board = await _board(db, _min_games(request), page)
    return request.app.state.templates.TemplateResponse(request, "players.html",
                                                        {"board": board})


@router.get("/u/{name}", response_class=HTMLResponse, responses=page_not_found("player"))
async def profile_page(name: Name, request: Request, db: DB) -> Response:
    found = await _profile(db, name, _min_games(request))
    if found is None:
        return error_page(request, "player")
    profile, recent = found
    context = {"p": profile_json(profile, recent), "chart": rating_chart(profile.history),
               "per_page": PER_PAGE}
    return request.app.state.templates.TemplateResponse(request, "profile.html", context)

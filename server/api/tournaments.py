"""Tournaments over HTTP (server.tournaments): organise one, list them, enter, withdraw;
the list and tournament pages; and the page's socket, `/tournaments/{id}/socket`, which
sends the tournament's state at once and whenever it changes (watch only). Thin: the
scheduler, the pairing and the queries are server.tournaments'."""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Request, Response, WebSocket
from fastapi.responses import HTMLResponse
from pydantic import AwareDatetime, Field, model_validator

from server.error_codes import Refusal
from server.jsontext import dumps
from server.rooms import seating
from server.rooms.turnclock import ClockOption, ClockOptionError
from server.tournaments import Tournaments, document, frames, store
from server.tournaments.pairing import ROUND_ROBIN_MAX, SIZES

from .account_models import Empty
from .account_session import DB, Me, signed_in
from .error_pages import error_page
from .errors import EVERY_ROUTE, STATE_CHANGING, answers
from .models import Body
from .origin import origin_allowed
from .page_socket import PageSocket, heard
from .pages import script_json

router = APIRouter(responses=EVERY_ROUTE)
TournamentId = Annotated[int, Path(ge=1, lt=2**31)]
ROUNDS_MAX = 20
AHEAD_MAX = timedelta(days=90)  # a start at most this far ahead
LATE_START = timedelta(minutes=5)  # a start this far in the past is taken as "now"


class CreateTournament(Body):
    """A tournament to organise (signed in)."""

    name: Annotated[str, Field(max_length=200, description="1..24 characters")]
    system: Literal["swiss", "round_robin"] = "swiss"
    table_size: Literal[2, 3, 4] = 4
    rounds: Annotated[int, Field(ge=1, le=ROUNDS_MAX, description=(
        "Swiss rounds; a round robin plays as many as its field needs"))] = 3
    mode: Literal["realtime", "turn_based"] = "realtime"
    turn: Annotated[int, Field(ge=1, le=14 * 86400, description=(
        "the tables' clock: seconds per turn (real time 10..600; turn-based a day or more "
        "in whole days is the usual, 1 hour..14 days)"))] = 60
    bank: Annotated[int, Field(ge=0, le=30 * 86400, description="seconds of bank per seat")] = 300
    rated: bool = True
    invite_only: bool = False
    starts_at: AwareDatetime = Field(strict=False,
                                     description="when round 1 starts (ISO 8601 with a zone)")

    @model_validator(mode="after")
    def clock_fits_mode(self) -> CreateTournament:
        try:
            ClockOption(self.turn, self.bank).check(self.mode)
        except ClockOptionError as exc:
            raise ValueError(str(exc)) from None
        return self


class Enter(Body):
    invite: Annotated[str, Field(max_length=64)] | None = None


def service(request: Request | WebSocket) -> Tournaments:
    return request.app.state.tournaments


def client_of(request: Request | WebSocket) -> str:
    return request.client.host if request.client else "unknown"


def not_found(tournament_id: int) -> Refusal:
    return Refusal("tournament_not_found", f"no tournament {tournament_id}", 404)


def summary(t: Any) -> dict[str, Any]:
    return {"id": t.id, "name": t.name, "system": t.system, "table_size": t.table_size,
            "rounds": t.rounds, "mode": t.mode, "rated": t.rated,
            "starts_at": t.starts_at.isoformat(), "status": t.status, "round": t.round,
            "entrants": t.entrants, "url": f"/tournaments/{t.id}"}


@router.post("/api/tournaments", status_code=201,
             responses={**STATE_CHANGING, **answers(401, 422, 429, 503)})
async def create_tournament(body: CreateTournament, request: Request, me: Me,
                            db: DB) -> dict[str, Any]:
    """Organise a tournament (the organiser does not enter it by this: they enter like
    anyone). An invite-only one answers its invite link here, once."""
    tournaments = service(request)
    sessions = tournaments.db()
    name = seating.clean_name(body.name)
    now = tournaments.wall()
    if body.starts_at < now - LATE_START or body.starts_at > now + AHEAD_MAX:
        raise Refusal("malformed", "the start is from now to 90 days ahead", 422)
    tournaments.limit(client_of(request))
    invite = secrets.token_urlsafe(18) if body.invite_only else None
    new = store.NewTournament(
        name=name, organiser_id=me.id, system=body.system, table_size=body.table_size,
        rounds=body.rounds, mode=body.mode, turn=body.turn, bank=body.bank, rated=body.rated,
        invite=invite, starts_at=max(body.starts_at, now), client=client_of(request))
    async with sessions() as session, session.begin():
        if await store.organised(session, me.id) >= tournaments.settings.TOURNAMENTS_PER_ACCOUNT:
            raise Refusal("too_many_tournaments",
                          "you organise as many tournaments as one may at once", 429)
        tournament_id = await store.create(session, new, now)
    tournaments.changed(tournament_id)
    url = f"/tournaments/{tournament_id}"
    return {"id": tournament_id, "url": url, "invite": invite,
            "invite_url": None if invite is None else f"{url}?invite={invite}"}


@router.get("/api/tournaments")
async def list_tournaments(request: Request) -> dict[str, Any]:
    """The open and running tournaments (not the invite-only ones), then the last ended."""
    async with service(request).db()() as session:
        rows = await store.listing(session)
    return {"tournaments": [summary(t) for t in rows]}


async def _viewed(request: Request, tournament_id: int) -> dict[str, Any]:
    tournaments = service(request)
    async with tournaments.db()() as session:
        doc = await document(session, tournament_id)
        if doc is None:
            raise not_found(tournament_id)
        me = await signed_in(request)
        you: dict[str, Any] = {"id": None, "entered": False, "organiser": False}
        if me is not None:
            entered = {s["id"]: s["withdrawn"] for s in doc["standings"]}
            you = {"id": me.id, "entered": me.id in entered and not entered[me.id],
                   "organiser": doc["organiser"] == me.id}
            if you["organiser"] and doc["invite_only"]:
                t = await store.get(session, tournament_id)
                assert t is not None
                you["invite_url"] = f"/tournaments/{t.id}?invite={t.invite}"
    return {**doc, "you": you}


@router.get("/api/tournaments/{tournament_id}", responses=answers(404, 503))
async def get_tournament(tournament_id: TournamentId, request: Request) -> dict[str, Any]:
    """The tournament: players, standings (points, then Buchholz, first places, entry
    order), each round's tables with their rooms and results, byes; `you`: the viewer."""
    return await _viewed(request, tournament_id)


@router.post("/api/tournaments/{tournament_id}/join",
             responses={**STATE_CHANGING, **answers(401, 429, 503)})
async def enter_tournament(tournament_id: TournamentId, body: Enter, request: Request,
                           me: Me) -> dict[str, Any]:
    """Enter an open tournament (an invite-only one with its invite link's secret, or as
    its organiser: their page shows the link, not a refusal)."""
    tournaments = service(request)
    client = client_of(request)
    tournaments.limit(client)
    async with tournaments.db()() as session, session.begin():
        t = await store.get(session, tournament_id)
        if t is None:
            raise not_found(tournament_id)
        if t.invite is not None and t.organiser_id != me.id and (
                body.invite is None or not secrets.compare_digest(body.invite, t.invite)):
            raise Refusal("not_invited", "this tournament is by invitation: use its link", 403)
        if (await store.entries_from(session, tournament_id, client)
                >= tournaments.settings.TOURNAMENT_ENTRIES_PER_ADDRESS):
            raise Refusal("too_many_tournaments",
                          "too many entries to this tournament from this address", 429)
        try:
            cap = tournaments.settings.TOURNAMENT_PLAYERS
            if t.system == "round_robin":
                cap = min(cap, ROUND_ROBIN_MAX)
            await store.enter(session, tournament_id, me.id, me.name, client,
                              tournaments.wall(), cap)
        except store.Closed:
            raise Refusal("tournament_closed", "this tournament takes no more players") from None
        except store.Entered:
            raise Refusal("tournament_entered", "you are in this tournament already") from None
    tournaments.changed(tournament_id)
    return {"ok": True}


@router.post("/api/tournaments/{tournament_id}/withdraw",
             responses={**STATE_CHANGING, **answers(401, 429, 503)})
async def withdraw_tournament(tournament_id: TournamentId, body: Empty, request: Request,
                              me: Me) -> dict[str, Any]:
    """Leave: before the start the entry goes; once it runs, no more pairings (the points
    won stay, and the game in progress goes on)."""
    tournaments = service(request)
    tournaments.limit(client_of(request))
    async with tournaments.db()() as session, session.begin():
        t = await store.get(session, tournament_id)
        if t is None:
            raise not_found(tournament_id)
        if t.status in (store.FINISHED, store.CANCELLED):
            raise Refusal("tournament_closed", "this tournament has ended")
        if not await store.withdraw(session, tournament_id, me.id, tournaments.wall()):
            raise Refusal("not_entered", "you are not in this tournament")
    tournaments.changed(tournament_id)
    return {"ok": True}


# --- the pages -----------------------------------------------------------------------------


@router.get("/tournaments", response_class=HTMLResponse)
async def tournaments_page(request: Request, db: DB) -> Response:
    listed = await list_tournaments(request)
    me = await signed_in(request)
    return request.app.state.templates.TemplateResponse(request, "tournaments.html", {
        "listed": listed["tournaments"], "signed_in": me is not None,
        "sizes": SIZES, "rounds_max": ROUNDS_MAX})


@router.get("/tournaments/{tournament_id}", response_class=HTMLResponse,
            responses={404: {"description": "no such tournament: a page saying so",
                             "content": {"text/html": {}}}})
async def tournament_page(tournament_id: TournamentId, request: Request) -> Response:
    try:
        viewed = await _viewed(request, tournament_id)
    except Refusal as exc:
        if exc.code != "tournament_not_found":
            raise
        return error_page(request, "page")
    return request.app.state.templates.TemplateResponse(request, "tournament.html", {
        "t": viewed, "t_json": script_json(viewed)})


# --- the page's socket -----------------------------------------------------------------------


@router.websocket("/tournaments/{tournament_id}/socket")
async def tournament_socket(ws: WebSocket, tournament_id: int) -> None:
    """The tournament's state at once and whenever it changes (here at once, on another
    instance within TOURNAMENT_WATCH s: Tournaments.follow; the newest only, to a
    slow reader: server.api.page_socket); anything the client sends is refused (error
    `malformed`, close 1008); a client that stops reading is dropped after WS_SEND_TIMEOUT."""
    tournaments = service(ws)
    settings = ws.app.state.settings
    if not origin_allowed(ws.headers, settings.ALLOWED_ORIGINS):
        await ws.close(1008, "origin not allowed")
        return
    await ws.accept()
    watcher = PageSocket(ws, settings.WS_SEND_TIMEOUT)
    if tournaments.sessions is None:
        await ws.send_text(dumps(frames.error("tournaments_off", "no database")))
        await ws.close(1013, "tournaments_off")
        return
    with tournaments.watching(tournament_id, watcher) as admitted:
        if not admitted:
            await ws.send_text(dumps(frames.error("too_many_sockets", "too many sockets")))
            await ws.close(1013, "too_many_sockets")
            return
        if not await tournaments.publish(tournament_id, watcher):  # watching first: no gap
            await ws.send_text(dumps(frames.error("tournament_not_found",
                                                  "no such tournament")))
            await ws.close(1008, "tournament_not_found")
            return
        await watcher.serve(_only_listens(watcher))


async def _only_listens(watcher: PageSocket) -> None:
    """Until the client goes; anything it sends ends the socket (`malformed`, 1008)."""
    if await heard(watcher.ws):
        watcher.end(dumps(frames.error("malformed", "this socket only listens")),
                    1008, "malformed")

"""The tournaments' HTTP routes attacked (server/api/tournaments.py), on SQLite and
PostgreSQL: every bad input is refused with a registered code (server/error_codes.py) and
changes nothing; organising and entering are bounded per account and per address; an
invite-only tournament takes only those with its link; the page's socket listens only."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from datetime import timedelta
from typing import Any

import pytest
import pytest_asyncio
from fastapi import FastAPI
from starlette.testclient import TestClient

from server.config import Settings
from server.main import create_app
from tests.accounts.conftest import client, refused, running_app, sign_up


@pytest_asyncio.fixture(params=["sqlite", "postgresql"])
async def app(request: pytest.FixtureRequest,
              make_settings: Callable[..., Settings]) -> AsyncIterator[FastAPI]:
    async with running_app(request.param, make_settings, TOURNAMENT_RATE=12) as built:
        yield built


def body(app: FastAPI, **fields: Any) -> dict[str, Any]:
    start = app.state.tournaments.wall() + timedelta(hours=1)
    return {"name": "Spring Cup", "starts_at": start.isoformat(), **fields}


@pytest.mark.asyncio
async def test_bad_input_gets_coded_refusals_and_changes_nothing(app: FastAPI) -> None:
    async with client(app, "10.1.0.1") as anon:
        refused(await anon.post("/api/tournaments", json=body(app)), 401, "not_signed_in")
    async with client(app, "10.1.0.2") as org:
        await sign_up(org, "Orga")
        for bad in ({"table_size": 5}, {"table_size": 1}, {"rounds": 0}, {"rounds": 21},
                    {"system": "knockout"}, {"mode": "blitz"}, {"turn": 5},
                    {"mode": "turn_based", "turn": 60},  # a turn-based turn is an hour or more
                    {"extra": 1}, {"rated": "yes"}, {"starts_at": "tomorrow"},
                    {"starts_at": "2026-12-05T12:00:00"}):  # no zone
            refused(await org.post("/api/tournaments", json=body(app, **bad)), 422,
                    "malformed")
        far = app.state.tournaments.wall() + timedelta(days=400)
        refused(await org.post("/api/tournaments", json=body(app, starts_at=far.isoformat())),
                422, "malformed")
        refused(await org.post("/api/tournaments", json=body(app, name="   ")), 422,
                "name_invalid")
        assert (await org.get("/api/tournaments")).json()["tournaments"] == []
        for path in ("/api/tournaments/0", "/api/tournaments/99999999999",
                     "/api/tournaments/x"):
            refused(await org.get(path), 422, "malformed")
        refused(await org.get("/api/tournaments/77"), 404, "tournament_not_found")
        refused(await org.post("/api/tournaments/77/join", json={}), 404,
                "tournament_not_found")
        refused(await org.post("/api/tournaments/77/withdraw", json={}), 404,
                "tournament_not_found")


@pytest.mark.asyncio
async def test_organising_and_entering_are_bounded(app: FastAPI) -> None:
    async with client(app, "10.2.0.1") as org:
        await sign_up(org, "Orgb")
        made = [await org.post("/api/tournaments", json=body(app)) for _ in range(2)]
        assert [r.status_code for r in made] == [201, 201]
        # TOURNAMENTS_PER_ACCOUNT (2) not ended: a third waits
        refused(await org.post("/api/tournaments", json=body(app)), 429,
                "too_many_tournaments")
        tid = made[0].json()["id"]
        assert (await org.post(f"/api/tournaments/{tid}/join", json={})).status_code == 200
        refused(await org.post(f"/api/tournaments/{tid}/join", json={}), 409,
                "tournament_entered")
        assert (await org.post(f"/api/tournaments/{tid}/withdraw", json={})).status_code == 200
        refused(await org.post(f"/api/tournaments/{tid}/withdraw", json={}), 409,
                "not_entered")
    # TOURNAMENT_ENTRIES_PER_ADDRESS (4) from one address
    for n in range(5):
        async with client(app, f"10.2.1.{n}") as home:
            await sign_up(home, f"Same{n}")
        async with client(app, "10.2.0.9", cookies=home.cookies) as other:
            r = await other.post(f"/api/tournaments/{tid}/join", json={})
            if n < 4:
                assert r.status_code == 200, r.text
            else:
                refused(r, 429, "too_many_tournaments")


@pytest.mark.asyncio
async def test_requests_from_one_address_are_rate_limited(app: FastAPI) -> None:
    async with client(app, "10.3.0.1") as org:
        await sign_up(org, "Orgc")
        tid = (await org.post("/api/tournaments", json=body(app))).json()["id"]
        codes = []
        for _ in range(14):  # TOURNAMENT_RATE is 12 a minute here (1 used by the creation)
            r = await org.post(f"/api/tournaments/{tid}/join", json={})
            codes.append(r.json().get("error", {}).get("code", "ok"))
        assert codes[-1] == "too_many_tournaments" and "ok" in codes


@pytest.mark.asyncio
async def test_an_invite_only_tournament_takes_only_its_link(app: FastAPI) -> None:
    async with client(app, "10.4.0.1") as org, client(app, "10.4.0.2") as guest:
        await sign_up(org, "Orgd")
        await sign_up(guest, "Guestd")
        made = (await org.post("/api/tournaments", json=body(app, invite_only=True))).json()
        tid, invite = made["id"], made["invite"]
        assert made["invite_url"] == f"/tournaments/{tid}?invite={invite}"
        assert (await guest.get("/api/tournaments")).json()["tournaments"] == []  # not listed
        refused(await guest.post(f"/api/tournaments/{tid}/join", json={}), 403, "not_invited")
        refused(await guest.post(f"/api/tournaments/{tid}/join", json={"invite": "guess"}),
                403, "not_invited")
        seen = (await guest.get(f"/api/tournaments/{tid}")).json()
        assert "invite_url" not in seen["you"] and invite not in json.dumps(seen)
        ok = await guest.post(f"/api/tournaments/{tid}/join", json={"invite": invite})
        assert ok.status_code == 200, ok.text
        mine = (await org.get(f"/api/tournaments/{tid}")).json()["you"]
        assert mine["organiser"] and mine["invite_url"].endswith(invite)
        ok = await org.post(f"/api/tournaments/{tid}/join", json={})  # its organiser: no link
        assert ok.status_code == 200, ok.text


def test_the_page_socket_only_listens(make_settings: Callable[..., Settings]) -> None:
    with TestClient(create_app(make_settings(BOT_WORKERS=0))) as tc:
        with tc.websocket_connect("/tournaments/5/socket") as ws:
            frame = json.loads(ws.receive_text())
            assert frame["type"] == "error" and frame["code"] == "tournament_not_found"
        made = tc.post("/api/accounts", json={"name": "Orge", "password": "correct horse"},
                       headers={"Origin": "http://testserver"})
        assert made.status_code == 201
        start = tc.app.state.tournaments.wall() + timedelta(hours=1)  # type: ignore[attr-defined]
        tid = tc.post("/api/tournaments", json={"name": "Listen", "starts_at": start.isoformat()},
                      headers={"Origin": "http://testserver"}).json()["id"]
        with tc.websocket_connect(f"/tournaments/{tid}/socket") as ws:
            first = json.loads(ws.receive_text())
            assert first["type"] == "tournament" and first["tournament"]["name"] == "Listen"
            ws.send_text('{"type": "act"}')
            assert json.loads(ws.receive_text())["code"] == "malformed"

"""The operators' page (issue 47), in-process on SQLite and PostgreSQL: only an account the
host marked (`coffee-rush users operator`) gets anything; everyone else gets the answer of
a path that is not there. Every action is audited (who, what, when, to what) and passes the
same-site, Origin, JSON and rate checks; the audit is the feed other instances follow."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

import pytest
import pytest_asyncio
from fastapi import FastAPI
from sqlalchemy import text

from server import cli
from server.admin import store
from server.admin.routes import ACTIONS_PER_MINUTE
from server.admin.snapshot import head_migration
from server.config import Settings
from tests.accounts.conftest import client, refused, running_app, sign_up
from tests.serving import ROOT

pytestmark = pytest.mark.asyncio
EVIL = "https://evil.example"


@pytest_asyncio.fixture(params=["sqlite", "postgresql"])
async def app(request: pytest.FixtureRequest,
              make_settings: Callable[..., Settings]) -> AsyncIterator[FastAPI]:
    async with running_app(request.param, make_settings, TEMPLATES_DIR=ROOT / "templates") as built:
        yield built


async def host(app: FastAPI, *args: str) -> int:
    """`coffee-rush users --database-url URL ARGS` (its own event loop, in a thread)."""
    url = app.state.settings.DATABASE_URL
    return await asyncio.to_thread(cli.main, ["users", "--database-url", url, *args])


async def make_operator(app: FastAPI, name: str) -> None:
    assert await host(app, "operator", name) == 0


async def _audit(app: FastAPI) -> list[tuple[object, ...]]:
    async with app.state.db_sessions() as session:
        return [tuple(r) for r in await session.execute(text(
            "SELECT a.name, o.action, o.target, o.detail, o.at IS NOT NULL FROM operator_actions o"
            " LEFT JOIN accounts a ON a.id = o.account_id ORDER BY o.id"))]


async def test_only_an_operator_sees_the_page_and_its_data(app: FastAPI, capsys) -> None:
    async with client(app) as oona, client(app, "10.0.0.2") as pat, \
            client(app, "10.0.0.3") as nobody:
        await sign_up(oona, "Oona")
        await sign_up(pat, "Pat")
        room = (await pat.post("/api/rooms", json={"players": 2})).json()["code"]
        # Before the host marks her, Oona is a player like any other: nothing is there.
        for browser in (oona, pat, nobody):
            refused(await browser.get("/api/admin/state"), 404, "not_found")
            page = await browser.get("/admin", headers={"accept": "text/html"})
            assert page.status_code == 404 and "Operators" not in page.text
            refused(await browser.post("/api/admin/announcement", json={"text": "hi"}),
                    404, "not_found")
            refused(await browser.post("/api/admin/accounts",
                                       json={"who": "Pat", "action": "disable"}), 404,
                    "not_found")
            refused(await browser.post(f"/api/rooms/{room}/operator-close", json={}), 404,
                    "not_found")
        await make_operator(app, "Oona")
        assert "operator (may open /admin)" in capsys.readouterr().out
        assert (await oona.get("/admin", headers={"accept": "text/html"})).status_code == 200
        state = (await oona.get("/api/admin/state")).json()
        [me] = state["instances"]
        assert state["me"]["name"] == "Oona" and me["mode"] == "single"
        assert me["migration"] == {"database": head_migration(), "code": head_migration()}
        assert me["health"]["status"] == "ok" and me["version"] == "0.1.0"
        assert [r["code"].replace("-", "") for r in me["rooms"]] == [room.replace("-", "")]
        assert me["mail"] == {"on": False, "smtp": None} and me["bots"] is None
        # The page's refusals list what was refused above: 404s on the operators' paths.
        assert any(r["code"] == "not_found" and r["path"] == "/api/admin/state"
                   for r in me["refusals"]["recent"])
        # Pat is still nobody here.
        refused(await pat.get("/api/admin/state"), 404, "not_found")
    assert (await _audit(app)) == [(None, "operator", "#1", "Oona", True)]
    await host(app, "list")
    assert "active, operator" in capsys.readouterr().out


async def test_a_state_change_comes_from_this_site_with_json(app: FastAPI) -> None:
    async with client(app) as oona:
        await sign_up(oona, "Oona")
        await make_operator(app, "Oona")
        cookies = dict(oona.cookies)
    # A foreign page that holds the cookie: refused by the Guard, nothing done.
    async with client(app, origin=EVIL, cookies=cookies) as evil:
        refused(await evil.post("/api/admin/announcement", json={"text": "pwned"}), 403,
                "forbidden_origin")
    # A script without Origin or Sec-Fetch-Site: not this site's page (41.13).
    async with client(app, origin=None, cookies=cookies) as script:
        refused(await script.post("/api/admin/announcement", json={"text": "pwned"}), 403,
                "foreign_origin")
    async with client(app, cookies=cookies) as oona:
        form = await oona.post("/api/admin/announcement", content=b"text=pwned",
                               headers={"content-type": "application/x-www-form-urlencoded"})
        assert form.status_code == 415
        assert (await oona.get("/api/announcement")).json() == {"text": ""}
    assert await _audit(app) == [(None, "operator", "#1", "Oona", True)]


async def test_an_announcement_is_one_short_line_shown_as_text(app: FastAPI) -> None:
    async with client(app) as oona, client(app, "10.0.0.9") as anyone:
        await sign_up(oona, "Oona")
        await make_operator(app, "Oona")
        too_long = "x" * 281
        refused(await oona.post("/api/admin/announcement", json={"text": too_long}), 422,
                "malformed")
        refused(await oona.post("/api/admin/announcement", json={"text": 5}), 422, "malformed")
        refused(await oona.post("/api/admin/announcement", json={"text": "a", "html": True}),
                422, "malformed")
        # HTML is kept as the characters typed (pages write it with textContent); line
        # breaks, control characters and bidi overrides do not survive.
        said = "<b>Down</b> at 22:00\n\u202etxt\x00 & back soon"
        assert (await oona.post("/api/admin/announcement", json={"text": said})).is_success
        shown = "<b>Down</b> at 22:00 txt & back soon"
        assert (await anyone.get("/api/announcement")).json() == {"text": shown}
        assert (await oona.post("/api/admin/announcement", json={"text": "   "})).is_success
        assert (await anyone.get("/api/announcement")).json() == {"text": ""}
    audit = await _audit(app)
    assert audit[1:] == [("Oona", "announce", None, shown, True),
                         ("Oona", "announce", None, "", True)]


async def test_operator_actions_on_accounts_are_audited_and_limited(app: FastAPI) -> None:
    async with client(app) as oona, client(app, "10.0.0.2") as pat, \
            client(app, "10.0.0.4") as olaf:
        await sign_up(oona, "Oona")
        await sign_up(pat, "Pat")
        await sign_up(olaf, "Olaf")
        await make_operator(app, "Oona")
        await make_operator(app, "Olaf")
        act = lambda who, action: oona.post(  # noqa: E731
            "/api/admin/accounts", json={"who": who, "action": action})
        assert (await act("pat", "mute")).is_success  # any look-alike of the name
        assert app.state.muted_accounts == {2}
        assert (await act("#2", "unmute")).is_success and app.state.muted_accounts == set()
        assert (await act("Pat", "disable")).is_success
        # Disabled: Pat's session is over at once.
        refused(await pat.get("/api/me"), 401, "not_signed_in")
        # An operator's account is the host's to change, Oona's own included.
        refused(await act("Olaf", "disable"), 403, "forbidden")
        refused(await act("Oona", "mute"), 403, "forbidden")
        refused(await act("Nobody", "mute"), 404, "not_found")
        refused(await oona.post("/api/admin/accounts", json={"who": "Pat", "action": "delete"}),
                422, "malformed")
        audit = await _audit(app)
        assert audit[2:] == [("Oona", "mute", "#2", "Pat", True),
                             ("Oona", "unmute", "#2", "Pat", True),
                             ("Oona", "disable", "#2", "Pat", True)]
        # At most ACTIONS_PER_MINUTE actions a minute, per operator; refused ones count.
        for _ in range(ACTIONS_PER_MINUTE - 7):  # 7 asked so far
            assert (await act("Pat", "enable")).is_success
        refused(await act("Pat", "enable"), 429, "rate_limited")
        state = (await oona.get("/api/admin/state")).json()
        assert state["instances"][0]["refusals"]["rate_limit_hits"] == 1
        assert [a["action"] for a in state["audit"][:2]] == ["enable", "enable"]


async def test_the_audit_is_the_feed_another_instance_follows(app: FastAPI) -> None:
    """What an operator did on another instance (a row written to the shared database)
    reaches this one's announcement and mutes at its next read of the feed."""
    ops = app.state.operations
    async with app.state.db_sessions() as session, session.begin():
        await store.record(session, None, store.ANNOUNCE, None, "from elsewhere")
        await store.record(session, None, store.MUTE, "#7", "Someone")
    assert ops.announcement == "" and 7 not in app.state.muted_accounts
    assert await ops.follow(app.state.db_sessions) == 2
    assert ops.announcement == "from elsewhere" and 7 in app.state.muted_accounts
    assert await ops.follow(app.state.db_sessions) == 0

"""A session cookie works only from this site: a state change that carries it from another
Origin is refused, by the Guard (forbidden_origin) and, where ALLOWED_ORIGINS lets other
sites play by token (`*`), by the accounts (foreign_origin). Reads need no Origin."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable

import pytest
import pytest_asyncio
from fastapi import FastAPI

from server.config import Settings
from server.main import create_app

from .conftest import client, refused, sign_up

pytestmark = pytest.mark.asyncio
EVIL = "http://evil.example"


@pytest_asyncio.fixture
async def open_app(make_settings: Callable[..., Settings]) -> AsyncIterator[FastAPI]:
    """Any site may play here by token (ALLOWED_ORIGINS=*)."""
    built = create_app(make_settings(BOT_WORKERS=0, ALLOWED_ORIGINS=["*"]))
    async with built.router.lifespan_context(built):
        yield built


async def test_a_stolen_cookie_from_a_foreign_origin_is_refused_by_the_guard(
    sqlite_app: FastAPI,
) -> None:
    async with client(sqlite_app) as alice:
        await sign_up(alice, "Alice")
        cookies = dict(alice.cookies)
    async with client(sqlite_app, origin=EVIL, cookies=cookies) as evil:
        refused(await evil.post("/api/me/name", json={"name": "Mallory"}), 403,
                "forbidden_origin")


async def test_where_other_sites_may_play_they_still_cannot_use_a_session(
    open_app: FastAPI,
) -> None:
    async with client(open_app) as alice:
        await sign_up(alice, "Alice")
        code = (await alice.post("/api/rooms", json={"players": 2})).json()["code"]
        cookies = dict(alice.cookies)
    async with client(open_app, origin=EVIL, cookies=cookies) as evil:
        for path, body in (("/api/me/name", {"name": "Mallory"}), ("/api/sign-out", {}),
                           ("/api/me/delete", {"name": "Alice"}),
                           (f"/api/rooms/{code}/join", {"name": "x"}),
                           (f"/api/rooms/{code}/rejoin", {})):
            refused(await evil.post(path, json=body), 403, "foreign_origin")
    async with client(open_app, origin=EVIL) as site:  # without the cookie: by token, as ever
        assert (await site.post(f"/api/rooms/{code}/join", json={"name": "Bob"})).status_code \
            == 200
    async with client(open_app, cookies=cookies) as alice:
        assert (await alice.get("/api/me")).json()["name"] == "Alice"  # nothing changed


async def test_a_script_without_origin_but_flagged_cross_site_is_refused(
    open_app: FastAPI,
) -> None:
    async with client(open_app) as alice:
        await sign_up(alice, "Alice")
        cookies = dict(alice.cookies)
    async with client(open_app, origin=None, cookies=cookies,
                      headers={"sec-fetch-site": "cross-site"}) as evil:
        refused(await evil.post("/api/me/name", json={"name": "Mallory"}), 403,
                "foreign_origin")


async def test_a_cookie_with_neither_origin_nor_sec_fetch_site_is_refused(
    sqlite_app: FastAPI,
) -> None:
    """Issue 41.13: with neither header nothing says the request comes from this site, and
    PROTOCOL.md says a state change with the cookie must: refused. A browser sends Origin
    on every POST; a script acts by its tokens, or says where it is (same-origin)."""
    async with client(sqlite_app) as alice:
        await sign_up(alice, "Alice")
        cookies = dict(alice.cookies)
    async with client(sqlite_app, origin=None, cookies=cookies) as script:
        refused(await script.post("/api/me/name", json={"name": "Mallory"}), 403,
                "foreign_origin")
        assert (await script.get("/api/me")).json()["name"] == "Alice"  # reads need neither
    async with client(sqlite_app, origin=None, cookies=cookies,
                      headers={"sec-fetch-site": "same-origin"}) as page:
        r = await page.post("/api/me/name", json={"name": "Alicia"})
        assert r.status_code == 200 and r.json()["name"] == "Alicia"

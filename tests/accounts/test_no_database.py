"""A server without a database (tests inject a journal) has no accounts: every account
route answers 503 accounts_need_database, and tables play on as before."""

from __future__ import annotations

from fastapi.testclient import TestClient

from server.accounts.sessions import COOKIE
from server.config import Settings
from server.main import create_app
from server.rooms import NullJournal

from .conftest import refused


def test_without_a_database_accounts_answer_503_and_tables_still_play(
    templates_dir,
) -> None:
    app = create_app(Settings(_env_file=None, ALLOWED_HOSTS="testserver", BOT_WORKERS=0,
                              TEMPLATES_DIR=templates_dir), journal=NullJournal())
    with TestClient(app) as browser:
        r = browser.post("/api/accounts", json={"name": "Alice", "password": "pw-pw-pw-1"})
        refused(r, 503, "accounts_need_database")
        refused(browser.get("/api/me"), 503, "accounts_need_database")
        refused(browser.post("/api/sign-in/passkey/begin", json={}), 503,
                "accounts_need_database")
        code = browser.post("/api/rooms", json={"players": 2}).json()["code"]
        browser.cookies.set(COOKIE, "made-up")
        r = browser.post(f"/api/rooms/{code}/join", json={"name": "Alice"})
        assert r.status_code == 200 and "verified" not in browser.get(
            f"/api/rooms/{code}").json()["seats"][0]

"""The account page is served with every string it shows translatable, and the header of
every page carries the account link (hidden until the page knows accounts exist)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from server.config import Settings
from server.main import create_app
from server.rooms import NullJournal


def test_the_account_page_and_the_headers_account_link() -> None:
    app = create_app(Settings(_env_file=None, ALLOWED_HOSTS="testserver", BOT_WORKERS=0),
                     journal=NullJournal())
    with TestClient(app) as browser:
        page = browser.get("/account")
        assert page.status_code == 200
        assert '<script type="module" src="/static/js/account/account.js">' in page.text
        assert 'data-i18n="acct.signUp"' in page.text and 'id="sign-in-passkey"' in page.text
        for path in ("/", "/account", "/rules"):
            html = browser.get(path).text
            assert 'href="/account" data-account-link hidden' in html, path
            assert "/static/js/account/account-nav.js" in html, path
        assert browser.get("/api/me/session").json() == {"accounts": False, "account": None}

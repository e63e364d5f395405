"""`/account?next=` keeps a path of this site only, resolved as a browser resolves it
(issue 41.5: `/.//evil.example` resolved to `//evil.example`, another site). The browser
side, after a real sign-in, is tests/browser/test_account_next.py."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from server.api.next_path import same_site_path
from server.config import Settings
from server.main import create_app
from server.rooms import NullJournal

FOREIGN = ("/.//evil.example", "/..//evil.example", "/r/../..//evil.example",
           "/%2e//evil.example", "/%2E%2E//evil.example", "/.%2e//evil.example",
           "//evil.example", "/\\evil.example", "\\/evil.example", "/\t/evil.example",
           "/\n/evil.example", "\t//evil.example", " //evil.example", "https:evil.example",
           "https://evil.example/", "%2F%2Fevil.example", "/%2F%2Fx/..//evil.example",
           "/././/evil.example?x#y", "", "r/ABCD-EFGH")


@pytest.mark.parametrize("raw", FOREIGN)
def test_a_next_that_could_lead_off_the_site_is_dropped(raw: str) -> None:
    assert same_site_path(raw) is None


@pytest.mark.parametrize(("raw", "kept"), [
    ("/r/ABCD-EFGH", "/r/ABCD-EFGH"), ("/", "/"), ("/games?page=2#top", "/games?page=2#top"),
    ("/r/../games", "/games"), ("/./u/%2e%2e/players", "/players"), ("/../..", "/"),
    ("/%2F%2Fevil.example", "/%2F%2Fevil.example"),  # one segment of this site
    ("/games?next=//evil.example", "/games?next=//evil.example"),  # a query is no path
])
def test_a_path_of_the_site_is_kept_in_its_resolved_form(raw: str, kept: str) -> None:
    assert same_site_path(raw) == kept


def test_the_account_page_carries_only_the_kept_next() -> None:
    app = create_app(Settings(_env_file=None, ALLOWED_HOSTS="testserver", BOT_WORKERS=0),
                     journal=NullJournal())
    with TestClient(app) as browser:
        page = browser.get(f"/account?next={quote('/r/../r/ABCD-EFGH', safe='')}").text
        assert 'data-next="/r/ABCD-EFGH"' in page
        for raw in FOREIGN:
            assert "data-next" not in browser.get(f"/account?next={quote(raw, safe='')}").text

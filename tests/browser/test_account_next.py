"""The account page comes back to the table (issue 29): the table's and the lobby's "Sign
in" links carry `?next=` the page they are on; signing up or in there returns to it, as
a signed-in player. A `next` that leads off the site (an absolute URL, `//host`,
`/\\host`, and what the browser resolves to one, such as `/.//host`: issue 41.5) is
ignored: the player stays on the account page."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser
PASSWORD = "correct horse battery"


def test_sign_up_from_a_table_comes_back_to_it_and_foreign_nexts_are_ignored(
        new_page: Any) -> None:
    page = new_page()
    page.goto("/")
    link = page.locator("[data-account-link]").first
    expect(link).to_have_attribute("href", "/account?next=%2F")
    page.locator("#create-form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/r/[A-Z0-9]{4}-[A-Z0-9]{4}$"))
    table = page.url[page.url.index("/r/"):]
    expect(link).to_have_attribute("href", f"/account?next={quote(table, safe='')}")

    page.goto(link.get_attribute("href"))
    page.locator("#sign-up-use-password").click()
    page.locator("#sign-up-name").fill("Nora Next")
    page.locator("#sign-up-password").fill(PASSWORD)
    page.locator("#sign-up-with-password").click()
    page.wait_for_url(re.compile(re.escape(table) + "$"))
    name = page.locator("#player-name")  # back at the table, signed in
    expect(name).to_have_value("Nora Next")
    expect(name).not_to_be_editable()

    for foreign in ("https://example.com/r/x", "//example.com/r/x", "/\\example.com/r/x"):
        page.goto("/account")
        page.locator("#sign-out").click()
        expect(page.locator("#signed-out")).to_be_visible()
        page.goto(f"/account?next={quote(foreign, safe='')}")
        page.locator("#sign-in-name").fill("Nora Next")
        page.locator("#sign-in-password").fill(PASSWORD)
        page.locator("#sign-in-form button[type=submit]").click()
        expect(page.locator("#account-name")).to_have_text("Signed in as Nora Next")
        assert page.url.split("?")[0].endswith("/account"), (foreign, page.url)


# Spellings of another site that a raw-string check lets through or that the browser
# normalises into one (issue 41.5): dot segments, backslashes, tabs and newlines (which
# the URL parser drops), a scheme without slashes, percent-encoded dots and slashes.
FOREIGN_NEXTS = (
    "/.//evil.example", "/..//evil.example", "/r/../..//evil.example", "/%2e//evil.example",
    "/%2E%2E//evil.example", "//evil.example", "/\\evil.example", "\\/evil.example",
    "/\t/evil.example", "/\n/evil.example", "\t//evil.example", "https:evil.example",
    "https://evil.example/", "%2F%2Fevil.example", "/%2F%2Fevil.example/..//evil.example",
)


def test_no_spelling_of_another_site_in_next_leaves_the_site_after_a_real_sign_in(
        new_page: Any, base_url: str) -> None:
    page = new_page()
    left: list[str] = []

    def foreign(route: Any) -> None:  # any request off the site is noted, never made
        left.append(route.request.url)
        route.fulfill(status=200, body='<p id="account-name">evil</p>', content_type="text/html")

    page.context.route(lambda url: not url.startswith(base_url + "/"), foreign)
    page.goto("/account")
    page.locator("#sign-up-use-password").click()
    page.locator("#sign-up-name").fill("Ezra Elsewhere")
    page.locator("#sign-up-password").fill(PASSWORD)
    page.locator("#sign-up-with-password").click()
    expect(page.locator("#account-name")).to_have_text("Signed in as Ezra Elsewhere")
    landed = {}
    for spelling in FOREIGN_NEXTS:
        page.context.clear_cookies()  # signed out
        page.goto(f"/account?next={quote(spelling, safe='')}")
        page.locator("#sign-in-name").fill("Ezra Elsewhere")
        page.locator("#sign-in-password").fill(PASSWORD)
        page.locator("#sign-in-form button[type=submit]").click()
        expect(page.locator("#account-name")).not_to_be_empty()  # here, or there
        if left or not page.url.startswith(base_url + "/account"):
            landed[spelling] = left[:] or page.url
        left.clear()
    assert not landed, sorted(landed)


def test_a_next_on_the_site_with_dot_segments_lands_on_its_normal_form(new_page: Any,
                                                                        base_url: str) -> None:
    page = new_page()
    page.goto(f"/account?next={quote('/r/../games?page=1', safe='')}")
    page.locator("#sign-up-use-password").click()
    page.locator("#sign-up-name").fill("Dot Segments")
    page.locator("#sign-up-password").fill(PASSWORD)
    page.locator("#sign-up-with-password").click()
    page.wait_for_url(f"{base_url}/games?page=1")



def test_a_form_sent_before_its_page_script_loads_is_not_sent_by_the_browser_itself(
        new_page: Any) -> None:
    """A player who presses before the page's module has loaded (a slow phone link) must not
    get the browser's own GET submit: it would leave the page for one with the form's fields
    in its address (and in the history and the server's log). The modules are held back here;
    the press does nothing until they load."""
    page = new_page()
    page.route("**/static/js/lobby/*.js", lambda route: route.abort())
    page.goto("/")
    page.locator("#join-code").fill("K7QX-PM2A")
    page.locator("#join-code").press("Enter")
    page.locator("#create-form button[type=submit]").click()
    page.wait_for_timeout(300)  # a GET submit would have navigated by now
    assert page.url == page.url.split("?")[0] and page.url.endswith("/"), page.url

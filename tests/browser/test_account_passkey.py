"""Accounts in a real browser: Chromium's virtual authenticator (DevTools protocol) creates
a passkey for a new account on /account, the player signs out and back in with it, and
then sits at a table as a verified player (the ✓ by their seat, their account's name)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser
AUTHENTICATOR = {"protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
                 "hasUserVerification": True, "isUserVerified": True}


def test_a_passkey_account_signs_out_signs_back_in_and_sits_verified(
        browser: Any, base_url: str) -> None:
    # A passkey's relying party is a domain name, never an IP address: the same server as
    # localhost.
    ctx = browser.new_context(base_url=base_url.replace("127.0.0.1", "localhost"),
                              viewport={"width": 1280, "height": 900}, locale="en-US",
                              reduced_motion="reduce")
    ctx.set_default_timeout(10_000)
    errors: list[str] = []
    try:
        page = ctx.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        devtools = ctx.new_cdp_session(page)
        devtools.send("WebAuthn.enable")
        added = devtools.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})

        page.goto("/account")
        expect(page.locator("header [data-account-link]")).to_have_text("Sign in")
        page.locator("#sign-up-name").fill("Pia Passkey")
        page.locator("#sign-up-passkey").click()
        expect(page.locator("#account-name")).to_have_text("Signed in as Pia Passkey")
        expect(page.locator("#account-keys")).to_contain_text("1 passkey")
        credentials = devtools.send("WebAuthn.getCredentials",
                                    {"authenticatorId": added["authenticatorId"]})
        assert len(credentials["credentials"]) == 1
        assert credentials["credentials"][0]["isResidentCredential"]

        page.locator("#sign-out").click()
        expect(page.locator("#signed-out")).to_be_visible()
        expect(page.locator("#signed-in")).to_be_hidden()
        page.locator("#sign-in-passkey").click()
        expect(page.locator("#signed-in")).to_be_visible()
        expect(page.locator("#account-name")).to_have_text("Signed in as Pia Passkey")

        page.goto("/")
        expect(page.locator("header [data-account-link]")).to_have_text("✓ Pia Passkey")
        page.locator("#create-form button[type=submit]").click()
        page.wait_for_url(re.compile(r"/r/[A-Z0-9]{4}-[A-Z0-9]{4}$"))
        name = page.locator("#player-name")  # a signed-in player sits as themself
        expect(name).to_have_value("Pia Passkey")
        expect(name).not_to_be_editable()
        page.locator(".seat-ctrls .btn.primary").first.click()
        seat = page.locator(".seat").first
        expect(seat.locator(".seat-name")).to_have_text("Pia Passkey")
        expect(seat.locator(".verified")).to_be_visible()
        expect(seat.locator(".verified")).to_have_attribute(
            "aria-label", "Signed in: this name is theirs")

        # On a phone the header's account link is a person with a ✓: nothing scrolls sideways.
        page.set_viewport_size({"width": 360, "height": 740})
        page.goto("/")
        link = page.locator("header [data-account-link]")
        expect(link).to_be_visible()
        expect(link).to_have_class(re.compile(r"\bsigned-in\b"))
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
    finally:
        ctx.close()
    assert not errors, f"JavaScript errors on the page: {errors}"

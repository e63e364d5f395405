"""Debian's Chromium driven by Playwright: one place for its path, flags and launch."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
# Headless as root, and quiet: this machine's closed network refuses Google's services.
ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
needs_chromium = pytest.mark.skipif(not CHROMIUM.exists(), reason=f"needs Chromium at {CHROMIUM}")


@contextmanager
def chromium() -> Iterator[Any]:
    """A launched browser. Playwright's sync API keeps an event loop running in this thread
    until it stops: open it after anything that calls asyncio.run()."""
    from playwright.sync_api import expect, sync_playwright

    # Playwright's assertions wait 5 s by default, a context's actions the 10 s the tests
    # set: on a loaded machine a table page once took longer than 5 s to draw its first
    # view. An assertion passes as soon as what it expects holds: only a failure waits longer.
    expect.set_options(timeout=10_000)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def watched_page(browser: Any, base_url: str, locale: str = "en-US", width: int = 1440,
                 height: int = 900) -> Iterator[Any]:
    """A page in a fresh context (its own storage); a script error on it fails the test."""
    context = browser.new_context(base_url=base_url, locale=locale,
                                  viewport={"width": width, "height": height})
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        yield page
    finally:
        context.close()
    assert errors == [], errors

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
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield browser
        finally:
            browser.close()

"""The browser table through the proxy: its room's owner dies (SIGKILL), the page reconnects by
itself, lands on the instance that claims the room, and the game goes on."""

from __future__ import annotations

import signal

from tests.browser.ui import save_shot
from tests.chromium import chromium, needs_chromium
from tests.persist.live import bots_game

from .harness import Cluster
from .test_through_proxy import owner


def version(page: object) -> int:
    return int(page.locator("body").get_attribute("data-v") or -1)  # type: ignore[attr-defined]


def wait_past(page: object, v: int, tries: int = 300) -> int:
    """The page's version once it is past `v` (polled: the CSP forbids evaluated strings)."""
    for _ in range(tries):
        now = version(page)
        if now > v:
            return now
        page.wait_for_timeout(100)  # type: ignore[attr-defined]
    raise AssertionError(f"the table stayed at version {v}")


@needs_chromium
def test_the_table_follows_its_room_to_the_next_owner(cluster) -> None:
    from playwright.sync_api import expect

    c: Cluster = cluster(2, settings={"BOT_WORKERS": "1", "BOT_DELAY": "0.4"})
    code = bots_game(c.proxy_url)

    with chromium() as browser:
        page = browser.new_context(base_url=c.proxy_url,
                                   viewport={"width": 1366, "height": 768}).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"/r/{code}")
        expect(page.locator("body")).not_to_have_attribute("data-v", "", timeout=10_000)
        wait_past(page, version(page))  # the bots are playing
        c.kill(owner(c), signal.SIGKILL)
        at_kill = version(page)
        # The survivor claims the room once the lease runs out; the page reconnects on
        # its own, gets a snapshot (a higher version) and sees the bots play on.
        wait_past(page, wait_past(page, at_kill))
        save_shot(page, "cluster-failover-1366x768")
        assert not errors, errors

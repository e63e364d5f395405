"""The operators' page in a real cluster (HAProxy, Redis, PostgreSQL, two instances), in
Chromium: it lists every instance with its health and the rooms each owns; closing a room
reaches its owner through the proxy; an announcement, a mute and a disabled account made on
one instance take hold on the other through the audit's feed; a killed instance shows as not
reporting (issue 47)."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time

import httpx
from websockets.sync.client import connect

from tests.browser.ui import SAME_SITE, save_shot
from tests.chromium import chromium, needs_chromium
from tests.serving import ROOT

from .harness import Cluster


def room_on_each(c: Cluster, api: httpx.Client) -> dict[str, tuple[str, str]]:
    """Rooms made through the proxy until each instance owns one: {instance: (code, host)}.
    The proxy sends a room's requests to one instance by its code, which claims the room
    (the one that made it may be another): a read through the proxy settles its owner."""
    found: dict[str, tuple[str, str]] = {}
    for _ in range(40):
        made = api.post("/api/rooms", json={"players": 2}).json()
        owner = api.get(f"/api/rooms/{made['code']}").headers["x-instance"]
        found.setdefault(owner, (made["code"], made["host_token"]))
        if len(found) == len(c.instances):
            return found
    raise AssertionError(f"40 rooms all went to {sorted(found)}")


def until(check, seconds: float = 20.0) -> None:  # noqa: ANN001
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "the condition never held"
        time.sleep(0.1)


@needs_chromium
def test_the_operators_page_sees_and_acts_across_the_cluster(cluster) -> None:  # noqa: ANN001

    c: Cluster = cluster(2)
    url = c.proxy_url
    with httpx.Client(base_url=url, timeout=30, headers={"origin": url}) as api, \
            httpx.Client(base_url=url, timeout=30, headers={"origin": url}) as pat:
        operate(c, api, pat)


def operate(c: Cluster, api: httpx.Client, pat: httpx.Client) -> None:
    from playwright.sync_api import expect

    url = c.proxy_url
    rooms = room_on_each(c, api)
    assert pat.post("/api/accounts", json={"name": "Pat", "password": "correct horse"}
                    ).status_code == 201
    far, (pat_room, _) = next(iter(rooms.items()))
    token = pat.post(f"/api/rooms/{pat_room}/join", json={"name": "x"}).json()["seat_token"]

    with chromium() as browser, connect(c.proxy_ws(pat_room), origin=url,
                                        open_timeout=10) as pat_ws:
        pat_ws.send(json.dumps({"type": "hello", "token": token}))
        ctx = browser.new_context(base_url=url, viewport={"width": 1366, "height": 768})
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("dialog", lambda dialog: dialog.accept())
        page.goto("/")
        made = page.request.post("/api/accounts", headers=SAME_SITE,
                                 data={"name": "Oona", "password": "correct horse"})
        assert made.status == 201, made.text()
        subprocess.run([sys.executable, "-m", "server.cli", "users", "--database-url",
                        c.database_url, "operator", "Oona"], check=True, cwd=ROOT,
                       capture_output=True)
        page.goto("/admin")
        instances = page.locator("#admin-instances tbody tr")
        expect(instances).to_have_count(2)
        for name in c.instances:  # both report (the others within a refresh or two)
            expect(instances.filter(has_text=name)).to_contain_text("fine", timeout=20_000)
        table = page.locator("#admin-rooms tbody")
        for owner, (code, _) in rooms.items():  # the room's maker may report it until its
            # next report (a room moves to the instance the proxy sends its code to)
            expect(table.locator("tr", has_text=code)).to_contain_text(owner, timeout=20_000)

        # A room closed from whichever instance serves the page: its owner closes it.
        near = next(name for name in rooms if name != far)
        closing, _ = rooms[near]
        page.get_by_role("button", name=f"Close {closing}").click()
        expect(table.locator("tr", has_text=closing)).to_have_count(0, timeout=15_000)
        assert api.get(f"/api/rooms/{closing}").status_code == 404

        # The announcement reaches both instances' pages; Pat's mute, then his disabling,
        # reach his socket on whichever instance owns his table.
        page.get_by_label(re.compile("Shown at the top")).fill("Maintenance at 22:00")
        page.get_by_role("button", name="Post").click()
        for inst in c.instances.values():
            until(lambda i=inst: httpx.get(f"{i.url}/api/announcement").json()["text"]
                  == "Maintenance at 22:00")
        page.get_by_label("Account name or #number").fill("Pat")
        page.get_by_role("button", name="Disable").click()
        expect(page.locator("#admin-said")).to_have_text("Done.", timeout=15_000)
        while (frame := json.loads(pat_ws.recv(timeout=15)))["type"] != "bye":
            pass
        assert frame["reason"] == "disabled"

        # An instance killed: the page, served by the survivor, says it stopped reporting.
        victim = far
        c.kill(victim, signal.SIGKILL)
        expect(instances.filter(has_text=victim)).to_contain_text("not reporting",
                                                                   timeout=30_000)
        save_shot(page, "admin-cluster-1366x768", full_page=True)
        assert not errors, errors
        ctx.close()

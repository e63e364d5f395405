"""A room joined the moment it is made, through the front door (a shared link opened at
once). Creations go to any instance; the join goes to the instance the room's code hashes
to, which claims the room from its maker then and there (the maker hands it over). Every
join is answered, and each room then stays where it was claimed: an instance's lease
renewal that looked while the claim was waiting must not drop the room the claim has just
registered (it would hold the lease with no room, and the next request would find none)."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import httpx

from .harness import TEST_SETTINGS, Cluster

ROOMS = 16


def made_and_joined(proxy_url: str) -> tuple[str, str]:
    """A room made through the front door and joined at once: (its code, who made it)."""
    with httpx.Client(base_url=proxy_url, timeout=20) as api:
        created = api.post("/api/rooms", json={"players": 2})
        assert created.status_code == 201, created.text
        code = created.json()["code"]
        joined = api.post(f"/api/rooms/{code}/join", json={"name": "P0"})
        assert joined.is_success and "seat_token" in joined.json(), joined.text
        return code, created.headers["x-instance"]


def rooms_held(c: Cluster) -> dict[str, int]:
    """How many rooms each instance serves (its /healthz: asking it claims nothing)."""
    return {name: httpx.get(f"{inst.url}/healthz", timeout=10).json()["rooms"]
            for name, inst in c.instances.items()}


def test_rooms_joined_as_they_are_made_stay_on_the_instance_that_claimed_them(cluster) -> None:
    c: Cluster = cluster(2)
    with ThreadPoolExecutor(ROOMS) as pool:  # at once: claims wait for each handover
        made = list(pool.map(lambda _: made_and_joined(c.proxy_url), range(ROOMS)))
    time.sleep(float(TEST_SETTINGS["LEASE_TTL"]))  # three lease renewals on each instance
    assert sum(rooms_held(c).values()) == ROOMS  # each room on one instance, none dropped
    homes = {code: c.route(f"/api/rooms/{code}")[0].name for code, _ in made}
    assert any(homes[code] != maker for code, maker in made)  # some were claimed from their maker

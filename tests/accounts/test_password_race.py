"""The password delay holds under simultaneous attempts (issue 29): a real server (its own
process, SQLite and PostgreSQL) gets a burst of wrong passwords at once for one account
from one address; no more than FREE of them are checked (answered bad_credentials), the
rest are refused (rate_limited), and the right password from that address is refused
afterwards too, while the owner at another address gets in (issue 41.6). A burst for many
names from one address is checked in full (each name is a pair of its own), and holds up
no account from that address. (When the count was read before the attempt was written,
every attempt of a burst passed it and was checked.)"""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path

import httpx
import pytest
from db.conftest import PG_URL, reset_postgres

from server.accounts.ratelimit import FREE
from tests.serving import served_process

from .conftest import LOADED_MACHINE_DB_TIMEOUT, wait_for_the_last_server

pytestmark = pytest.mark.timeout(300)
BURST = 4 * FREE


async def _burst(url: str, bodies: list[dict[str, str]],
                 addresses: list[str]) -> Counter[str]:
    """Every sign-in at once, each from its address (X-Forwarded-For, from a trusted
    proxy); how many got each answer."""
    limits = httpx.Limits(max_connections=len(bodies))
    async with httpx.AsyncClient(base_url=url, timeout=200, limits=limits) as http:
        answers = await asyncio.gather(*(
            http.post("/api/sign-in/password", json=body,
                      headers={"x-forwarded-for": address})
            for body, address in zip(bodies, addresses, strict=True)))
    return Counter(r.json()["error"]["code"] for r in answers)


@pytest.mark.parametrize("engine", ["sqlite", "postgresql"])
def test_a_burst_of_wrong_passwords_from_one_address_checks_no_more_than_the_free_ones(
    engine: str, tmp_path: Path,
) -> None:
    # DB_TIMEOUT: a loaded machine must not turn an attempt's wait for its turn (behind
    # the pair's earlier attempts and their hashes) into a refusal (`unavailable`), which
    # would leave fewer than FREE checked.
    settings = {"BOT_WORKERS": "0", "FORWARDED_ALLOW_IPS": "127.0.0.1",
                "DB_TIMEOUT": LOADED_MACHINE_DB_TIMEOUT}
    if engine == "postgresql":
        reset_postgres(PG_URL)
        wait_for_the_last_server()
        settings["DATABASE_URL"] = PG_URL
    log = (tmp_path / "server.log").open("wb")
    with log, served_process(tmp_path / "coffee-rush.db", log, **settings) as (url, _):
        made = httpx.post(f"{url}/api/accounts", json={"name": "Alice",
                                                       "password": "correct horse"})
        assert made.status_code == 201, made.text

        guesses = [{"name": "Alice", "password": f"guess {i:03}"} for i in range(BURST)]
        per_pair = asyncio.run(_burst(url, guesses, ["10.1.0.1"] * BURST))
        assert per_pair == {"bad_credentials": FREE, "rate_limited": BURST - FREE}, \
            (tmp_path / "server.log").read_text()[-3000:]
        right = httpx.post(f"{url}/api/sign-in/password",
                           json={"name": "Alice", "password": "correct horse"},
                           headers={"x-forwarded-for": "10.1.0.1"})
        assert right.status_code == 429 and right.json()["error"]["code"] == "rate_limited"
        owner = httpx.post(f"{url}/api/sign-in/password",
                           json={"name": "Alice", "password": "correct horse"},
                           headers={"x-forwarded-for": "10.2.0.1"})
        assert owner.status_code == 200, owner.text

        names = [{"name": f"Nobody {i}", "password": "whatever1"} for i in range(BURST)]
        per_address = asyncio.run(_burst(url, names, ["10.3.0.1"] * BURST))
        assert per_address == {"bad_credentials": BURST}, \
            (tmp_path / "server.log").read_text()[-3000:]
        shared = httpx.post(f"{url}/api/sign-in/password",
                            json={"name": "Alice", "password": "correct horse"},
                            headers={"x-forwarded-for": "10.3.0.1"})
        assert shared.status_code == 200, shared.text

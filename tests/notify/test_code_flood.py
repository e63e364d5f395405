"""A flood of "send the code" from one client address (issue 30): whatever seats and
e-mail addresses it uses, one client address gets at most MAX_CODES_PER_CLIENT codes an
hour (`code_flood`, 429), on both databases and under a burst of simultaneous requests;
another client address is not held back; an hour later the first may ask again."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
import pytest_asyncio
from fastapi.testclient import TestClient
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.db.migrate import upgrade_async
from server.db.session import make_engine, session_factory
from server.main import create_app
from server.notify import AddressBook
from server.notify.addresses import CLIENT_WINDOW, MAX_CODES_PER_CLIENT
from server.rooms import RoomError
from tests.clocks import FakeClock

from .smtp import SmtpServer

NOW = datetime(2026, 12, 4, 8, 0, tzinfo=UTC)
BURST = MAX_CODES_PER_CLIENT + 10


@pytest_asyncio.fixture
async def sessions(db_url: str) -> AsyncIterator[async_sessionmaker[AsyncSession]]:
    await upgrade_async(db_url)
    engine = make_engine(db_url)
    try:
        yield session_factory(engine)
    finally:
        await engine.dispose()


async def _ask(book: AddressBook, n: int, client: str) -> str:
    try:
        await book.add(f"ROOM{n:04}", 0, f"player{n}@example.org", "en", f"token-{n}", client)
    except RoomError as e:
        return e.code
    return "sent"


@pytest.mark.asyncio
async def test_a_burst_from_one_client_gets_no_more_than_the_limit(
        sessions: async_sessionmaker[AsyncSession]) -> None:
    book = AddressBook(sessions, lambda: NOW)
    answers = await asyncio.gather(*(_ask(book, n, "10.0.0.9") for n in range(BURST)))
    assert Counter(answers) == {"sent": MAX_CODES_PER_CLIENT,
                                "code_flood": BURST - MAX_CODES_PER_CLIENT}
    assert await _ask(book, BURST, "10.0.0.10") == "sent"  # another client address
    later = AddressBook(sessions, lambda: NOW + CLIENT_WINDOW + timedelta(seconds=1))
    assert await _ask(later, BURST + 1, "10.0.0.9") == "sent"


@pytest.fixture
def flooder(make_settings: Callable[..., Any], smtp: SmtpServer,
            fake_clock: FakeClock) -> Iterator[TestClient]:
    """The app, and a browser at 10.0.0.9."""
    built = create_app(make_settings(BOT_WORKERS=0, **smtp.settings()), clock=fake_clock)
    with TestClient(built, client=("10.0.0.9", 40000)) as client:
        yield client


def _seat_token(client: TestClient) -> tuple[str, str]:
    r = client.post("/api/rooms", json={"players": 2, "mode": "turn_based"})
    code = r.json()["code"]
    return code, client.post(f"/api/rooms/{code}/join", json={"name": "Ana"}).json()["seat_token"]


def _from(client: TestClient, address: str, path: str, body: dict[str, Any]) -> httpx.Response:
    """A request from another client address, on the app's own event loop."""
    async def send() -> httpx.Response:
        transport = httpx.ASGITransport(app=client.app, client=(address, 40000))
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as c:
            return await c.post(path, json=body)
    assert client.portal is not None
    return client.portal.call(send)


def test_the_route_refuses_a_flood_with_code_flood(flooder: TestClient,
                                                   fake_clock: FakeClock) -> None:
    for n in range(MAX_CODES_PER_CLIENT):  # a new table and e-mail address each time
        code, token = _seat_token(flooder)
        r = flooder.post(f"/api/rooms/{code}/email",
                         json={"token": token, "address": f"p{n}@example.org"})
        assert r.status_code == 200, r.text
    code, token = _seat_token(flooder)
    r = flooder.post(f"/api/rooms/{code}/email", json={"token": token,
                                                       "address": "one.more@example.org"})
    assert r.status_code == 429 and r.json()["error"]["code"] == "code_flood", r.text

    r = _from(flooder, "10.0.0.10", f"/api/rooms/{code}/email",
              {"token": token, "address": "one.more@example.org"})
    assert r.status_code == 200, r.text  # another client address: the seat's own limits
    fake_clock.advance(CLIENT_WINDOW.total_seconds() + 61)
    other, token = _seat_token(flooder)
    r = flooder.post(f"/api/rooms/{other}/email", json={"token": token,
                                                        "address": "again@example.org"})
    assert r.status_code == 200, r.text

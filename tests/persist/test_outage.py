"""PostgreSQL goes away mid-game: play goes on (acked, health degraded), the server is
killed during the outage, the database comes back, and nothing is missing or doubled."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any

import pytest
from db.conftest import PG_URL, reset_postgres
from db.proxy import TcpProxy
from sqlalchemy import select
from sqlalchemy.engine import make_url

from server.db.models import JournalEntry, Room
from server.db.session import make_engine

from .live import Server, Table, replay, seat_views, stored_game

SEED, PLAYERS = 5, 2


class ProxyThread:
    """The TCP proxy on an event loop of its own, so a synchronous test can drive it."""

    def __init__(self, host: str, port: int) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.proxy = TcpProxy(host, port)

    def run(self, coro: Coroutine[Any, Any, None]) -> None:
        asyncio.run_coroutine_threadsafe(coro, self.loop).result(10)

    def close(self) -> None:
        if self.proxy._server is not None:
            self.run(self.proxy.shut())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


@pytest.fixture
def proxy() -> Iterator[ProxyThread]:
    reset_postgres(PG_URL)
    u = make_url(PG_URL)
    p = ProxyThread(u.host or "127.0.0.1", u.port or 5432)
    p.run(p.proxy.open())
    yield p
    p.close()


def journal_rows(code: str) -> list[tuple[int, int | None, dict]]:
    async def load() -> list[tuple[int, int | None, dict]]:
        engine = make_engine(PG_URL)
        try:
            async with engine.connect() as c:
                rows = await c.execute(
                    select(JournalEntry.seq, JournalEntry.seat, JournalEntry.action)
                    .join(Room, Room.id == JournalEntry.room_id).where(Room.code == code)
                    .order_by(JournalEntry.seq)
                )
                return [tuple(r) for r in rows]
        finally:
            await engine.dispose()

    return asyncio.run(load())


def test_outage_then_crash_then_recovery(proxy: ProxyThread, tmp_path: Path) -> None:
    via_proxy = make_url(PG_URL).set(port=proxy.proxy.port).render_as_string(False)
    server = Server({
        "DATABASE_URL": via_proxy, "TEST_FIXED_SEED": str(SEED),
        "JOURNAL_FALLBACK_PATH": str(tmp_path / "journal-fallback.jsonl"),
    })
    server.start()
    try:
        table = Table(server, PLAYERS, seed=9)
        table.play(10)
        assert server.health()["database"] == "ok"

        proxy.run(proxy.proxy.shut())
        table.play(15)  # every one acknowledged, from the fallback file
        health = server.health()
        assert (health["status"], health["database"]) == ("degraded", "unreachable")
        assert (tmp_path / "journal-fallback.jsonl").stat().st_size > 0
        server.kill()
        table.close()

        proxy.run(proxy.proxy.open())
        server.start()  # copies the fallback file in, then restores the room
        code = table.code.replace("-", "")
        rows = journal_rows(code)
        assert [seq for seq, _, _ in rows] == list(range(1, 26))
        assert [(seat, action) for _, seat, action in rows] == table.acked
        assert (tmp_path / "journal-fallback.jsonl").stat().st_size == 0
        assert server.health()["status"] == "ok"

        table.connect(server)
        assert [p.game() for p in table.players] == seat_views(replay(SEED, PLAYERS, table.acked))
        table.play()
        table.close()
        saved = stored_game(PG_URL, code)
        assert saved is not None
        assert [list(a) for a in saved.actions] == [[s, a] for s, a in table.acked]
        assert journal_rows(code) == []  # the journal of a saved game is dropped
    finally:
        server.stop()

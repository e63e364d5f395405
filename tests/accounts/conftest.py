"""Account tests run on SQLite and on PostgreSQL (TEST_DATABASE_URL) where a database is
involved; the app is driven in-process (httpx over ASGI), never a server of its own."""

from __future__ import annotations

from pathlib import Path

import pytest
from db.conftest import PG_URL, reset_postgres


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path}/db/coffee-rush.db"
    reset_postgres(PG_URL)
    return PG_URL

"""The in-process persistence tests run on SQLite and on PostgreSQL (TEST_DATABASE_URL)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from db.conftest import PG_URL, reset_postgres
from fastapi.testclient import TestClient

from server.config import Settings
from server.main import create_app


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path}/db/coffee-rush.db"
    reset_postgres(PG_URL)
    return PG_URL


@pytest.fixture
def app_on(make_settings: Callable[..., Settings], db_url: str) -> Callable[[], Any]:
    """Open the app on the test database; leaving the block is a clean shutdown. Bots are
    off: a test plays the bot seats itself (`play`)."""

    @contextlib.contextmanager
    def run() -> Iterator[TestClient]:
        with TestClient(create_app(make_settings(DATABASE_URL=db_url, BOT_WORKERS=0))) as client:
            yield client

    return run

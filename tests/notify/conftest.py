from __future__ import annotations

from pathlib import Path

import pytest
from db.conftest import PG_URL, reset_postgres

from tests.clocks import FakeClock


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database of each kind (SQLite: a file in this test's own folder)."""
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path}/data/coffee-rush.db"
    reset_postgres(PG_URL)
    return PG_URL


@pytest.fixture
def fake_clock() -> FakeClock:
    return FakeClock()

"""A migrated SQLite database holding a few finished games, and the app reading it."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.pool import NullPool

from server.api.games import router
from server.config import Settings
from server.db.migrate import upgrade
from server.db.session import make_engine, session_factory
from server.main import create_app

from .helpers import Played, library, store_games


@pytest.fixture(scope="session")
def games() -> list[Played]:
    return library()


@pytest.fixture(scope="session")
def seeded_db(
    tmp_path_factory: pytest.TempPathFactory, games: list[Played]
) -> tuple[Path, list[int]]:
    """Migrated once, filled once; each test works on its own copy."""
    path = tmp_path_factory.mktemp("history") / "seeded.db"
    url = f"sqlite+aiosqlite:///{path}"
    upgrade(url)
    ids = store_games(url, [g.record for g in games])
    return path, ids


@pytest.fixture
def ids(seeded_db: tuple[Path, list[int]]) -> list[int]:
    return seeded_db[1]


@pytest.fixture
def db_url(seeded_db: tuple[Path, list[int]], tmp_path: Path) -> str:
    copy = tmp_path / "games.db"
    shutil.copy(seeded_db[0], copy)
    return f"sqlite+aiosqlite:///{copy}"


@pytest.fixture
def empty_db_url(tmp_path: Path) -> str:
    url = f"sqlite+aiosqlite:///{tmp_path}/empty.db"
    upgrade(url)
    return url


@pytest.fixture
def make_client() -> Iterator[Callable[[str | None], TestClient]]:
    """The app with the history router and (unless None) a database at this URL."""
    clients: list[TestClient] = []

    def make(url: str | None) -> TestClient:
        app = create_app(Settings(_env_file=None, TEST_FIXED_SEED=7))
        app.include_router(router)
        if url is not None:
            app.state.db_sessions = session_factory(make_engine(url, poolclass=NullPool))
        client = TestClient(app)
        client.__enter__()
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.__exit__(None, None, None)


@pytest.fixture
def api(make_client: Callable[[str | None], TestClient], db_url: str) -> TestClient:
    return make_client(db_url)

"""A migrated SQLite database holding a few finished games, and the app reading it."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from server.config import Settings
from server.db.migrate import upgrade
from server.main import create_app
from server.rooms import NullJournal
from tests.stored import store_games

from .helpers import Played, library


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
        if url is None:  # an injected journal means no database at all
            app = create_app(Settings(_env_file=None, ALLOWED_HOSTS="testserver"),
                             journal=NullJournal())
        else:
            path = url.removeprefix("sqlite+aiosqlite:///")
            app = create_app(Settings(
                _env_file=None, DATABASE_URL=url, JOURNAL_FALLBACK_PATH=f"{path}.fallback",
                ALLOWED_HOSTS="testserver",
            ))
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

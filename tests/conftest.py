"""Shared fixtures: the app built with test settings, websocket viewers, a real server."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import jsonpatch
import pytest
from fastapi.testclient import TestClient

from server.config import Settings
from server.db.migrate import upgrade
from server.main import create_app
from tests.notify.smtp import SmtpServer
from tests.serving import served_process

# Argon2 at its least cost for every app and server the tests start (pydantic-settings reads
# the environment; served processes inherit it): a test hashes a password for what the
# hash proves, not to resist guessing. Where the cost is what is tested, the test sets the
# real one (tests/accounts/test_sign_in_burst.py).
os.environ.setdefault("PASSWORD_TIME_COST", "1")
os.environ.setdefault("PASSWORD_MEMORY_KIB", "1024")

LOBBY = "<h1>lobby</h1>{% for r in rooms.open %}<li>{{ r.code }}</li>{% endfor %}"
ERROR = (
    '<!doctype html><h1 data-i18n="error.{{ kind }}.title">Not here</h1>'
    '<a href="/">Back to the lobby</a>'
)
TABLE = (
    '<h1>{{ code }}</h1><script id="v" type="application/json">'
    "{{ initial_view_json }}</script>"
)


@pytest.fixture
def templates_dir(tmp_path: Path) -> Path:
    """Minimal templates honouring the page contract (the real ones are the UI's)."""
    folder = tmp_path / "templates"
    folder.mkdir()
    (folder / "lobby.html").write_text(LOBBY)
    (folder / "table.html").write_text(TABLE)
    (folder / "error.html").write_text(ERROR)
    return folder


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty SQLite database at the newest schema, migrated once per test session."""
    path = tmp_path_factory.mktemp("schema") / "coffee-rush.db"
    upgrade(f"sqlite+aiosqlite:///{path}")
    return path


@pytest.fixture
def make_settings(
    templates_dir: Path, tmp_path: Path, migrated_sqlite: Path
) -> Callable[..., Settings]:
    """Settings for an app of its own: a copy of the migrated database (the start-up
    migration then has nothing to do), in this test's temporary folder."""
    (tmp_path / "data").mkdir(exist_ok=True)
    shutil.copyfile(migrated_sqlite, tmp_path / "data" / "coffee-rush.db")

    def make(**overrides: Any) -> Settings:
        values: dict[str, Any] = {
            "TEMPLATES_DIR": templates_dir,
            "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/data/coffee-rush.db",
            "JOURNAL_FALLBACK_PATH": tmp_path / "data" / "journal-fallback.jsonl",
            "TEST_FIXED_SEED": 7,
            "WS_FLOOD_WINDOW": 3600.0,  # a budget per hour: never refilled during a test
            "WS_FLOOD_MESSAGES": 5000,
            "WS_PER_ADDRESS": 100000,  # every TestClient socket comes from one address
            "ROOM_CREATE_RATE": 1000,
            "SWEEP_INTERVAL": 3600.0,
            "ALLOWED_ORIGINS": [],
            "ALLOWED_HOSTS": ["testserver"],  # the TestClient's Host
            "PRESENCE_INTERVAL": 0.0,  # spectator counts published at once, deterministically
        }
        values.update(overrides)
        return Settings(_env_file=None, **values)

    return make


@pytest.fixture
def settings(make_settings: Callable[..., Settings]) -> Settings:
    return make_settings()


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as test_client:
        yield test_client


class Viewer:
    """A websocket client that keeps its VIEW up to date from a snapshot plus patches."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.v: int | None = None
        self.view: dict[str, Any] | None = None
        self.texts: list[str] = []  # every frame received, for leak checks
        self.others: list[dict[str, Any]] = []  # acks, errors, byes, pongs

    def send(self, frame: Any) -> None:
        self.ws.send_text(frame if isinstance(frame, str) else json.dumps(frame))

    def hello(self, token: str | None = None, v: int | None = None) -> None:
        self.send({"type": "hello", "token": token, "v": v})

    def recv(self, timeout: float = 5.0) -> dict[str, Any]:
        """The next frame (JSON), applied to the view when it is a snapshot or a patch."""

        async def get() -> Any:
            with anyio.fail_after(timeout):
                return await self.ws._send_rx.receive()

        message = self.ws.portal.call(get)
        self.ws._raise_on_close(message)
        text = message["text"]
        self.texts.append(text)
        frame = json.loads(text)
        if frame["type"] == "snapshot":
            self.view, self.v = frame["view"], frame["v"]
        elif frame["type"] == "patch" and frame["v"] == self.v and not frame["ops"]:
            pass  # caught up already (a resume at the current version)
        elif frame["type"] == "patch":
            assert self.v is not None and frame["v"] == self.v + 1, (self.v, frame["v"])
            self.view = jsonpatch.apply_patch(self.view, frame["ops"])
            self.v = frame["v"]
        else:
            self.others.append(frame)
        return frame

    def sync(self, v: int) -> None:
        while self.v != v:
            self.recv()

    def expect(self, kind: str) -> dict[str, Any]:
        """Read until a non-view frame; it must be of this type. (A spectator's `watcher`
        frame is passed over unless it is the one expected.)"""
        while True:
            frame = self.recv()
            if frame["type"] == "watcher" and kind != "watcher":
                continue
            if frame["type"] not in ("snapshot", "patch"):
                assert frame["type"] == kind, frame
                return frame


class Table:
    """A room driven through the HTTP API, with helpers to open sockets on it."""

    def __init__(self, client: TestClient, players: int = 2, **options: Any) -> None:
        self.client = client
        r = client.post("/api/rooms", json={"players": players, **options})
        assert r.status_code == 201, r.text
        self.code: str = r.json()["code"]
        self.host_token: str = r.json()["host_token"]
        self.tokens: list[str] = []

    @property
    def room(self) -> Any:
        return self.client.app.state.rooms.get(self.code)  # type: ignore[attr-defined]

    def join_all(self) -> None:
        for seat in range(len(self.room.seats)):
            r = self.client.post(f"/api/rooms/{self.code}/join", json={"name": f"P{seat}"})
            assert r.status_code == 200, r.text
            self.tokens.append(r.json()["seat_token"])

    def start(self) -> None:
        r = self.client.post(f"/api/rooms/{self.code}/start", json={"token": self.host_token})
        assert r.status_code == 200, r.text

    def fresh(self, seat: int | None) -> dict[str, Any]:
        """What a new connection for this viewer would get as its snapshot view."""
        return json.loads(self.room.snapshot(seat))["view"]


@pytest.fixture
def table(client: TestClient) -> Callable[..., Table]:
    return lambda players=2, **options: Table(client, players, **options)


def canonical(value: Any) -> str:
    """JSON text that tells true from 1 and ignores key order."""
    return json.dumps(value, sort_keys=True)


@pytest.fixture
def same() -> Callable[[Any, Any], bool]:
    return lambda a, b: canonical(a) == canonical(b)


# --- a real server -------------------------------------------------------------------------


class LiveServer:
    def __init__(self, proc: subprocess.Popen[bytes], url: str) -> None:
        self.proc = proc
        self.http = url
        self.ws = url.replace("http", "ws", 1)


@pytest.fixture
def live_server(templates_dir: Path, tmp_path: Path) -> Iterator[LiveServer]:
    """`python -m server` in a subprocess on a free port (tests/serving.py); stopped by the
    test end."""
    with served_process(tmp_path / "live.db", stderr=None, TEST_FIXED_SEED="7",
                        TEMPLATES_DIR=str(templates_dir)) as (url, proc):
        yield LiveServer(proc, url)


@pytest.fixture
def connect(client: TestClient) -> Iterator[Callable[..., Viewer]]:
    """Open a websocket on a room (closed at the end of the test)."""
    with contextlib.ExitStack() as stack:

        def open_socket(code: str, headers: dict[str, str] | None = None) -> Viewer:
            ws = stack.enter_context(
                client.websocket_connect(f"/ws/{code}", headers=dict(headers or {}))
            )
            return Viewer(ws)

        yield open_socket


@pytest.fixture
def smtp() -> Iterator[SmtpServer]:
    """A real SMTP server in this process, keeping what it receives (tests/notify/smtp.py)."""
    server = SmtpServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()

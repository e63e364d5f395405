"""A real uvicorn server on a free port, in a thread of the test process, serving an app
built with an injected clock: a test moves the server's time by days (turn-based play)
while Chromium talks to it as to any server, and reads the rooms it serves directly.

The server is `python -m server`'s own (server.__main__.Server and its protocols); only
the process differs, so that the clock can be injected.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import uvicorn
from fastapi import FastAPI

from server.__main__ import Server
from server.config import Settings
from server.main import create_app
from server.ws.protocol import AnsweringWebSocketProtocol, UpgradingHttpProtocol
from tests.clocks import FakeClock as Clock
from tests.serving import ROOT, free_port

TEMPLATES = ROOT / "templates"  # the real pages (make_settings' are minimal stand-ins)


def clocked_settings(folder: Path, **overrides: Any) -> Settings:
    """Settings for such a server: its own SQLite file in `folder` (migrated by the server
    at start-up, in its own thread: the browser's event loop runs in this one), the real
    pages, a fixed seed."""
    values: dict[str, Any] = {
        "DATABASE_URL": f"sqlite+aiosqlite:///{folder}/data/coffee-rush.db",
        "JOURNAL_FALLBACK_PATH": folder / "data" / "journal-fallback.jsonl",
        "TEMPLATES_DIR": TEMPLATES, "TEST_FIXED_SEED": 7, "BOT_WORKERS": 0,
        "ROOM_CREATE_RATE": 1000, "ALLOWED_HOSTS": [], "ALLOWED_ORIGINS": [],
    }
    values.update(overrides)
    return Settings(_env_file=None, **values)


@contextlib.contextmanager
def clocked_server(settings: Settings, clock: Clock,
                   port: int | None = None) -> Iterator[tuple[str, FastAPI]]:
    """(base URL, app) of the server (on `port`, else a free one) while the block runs;
    stopped after (sockets told "restarting", the lifespan closed)."""
    app = create_app(settings, clock=clock)
    port = port or free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                            lifespan="off", http=UpgradingHttpProtocol,
                            ws=AnsweringWebSocketProtocol, timeout_graceful_shutdown=2)
    server = Server(config, app)
    thread = threading.Thread(target=server.run, name="clocked-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError(f"the server did not start ({server.refused})")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}", app
    finally:
        server.should_exit = True
        thread.join(20)


def room_of(app: FastAPI, code: str) -> Any:
    return app.state.rooms.get(code)

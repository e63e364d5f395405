"""The app with the history router and a database, for `uvicorn --factory` in browser tests."""

from __future__ import annotations

import os

from fastapi import FastAPI

from server.api.games import router
from server.config import Settings
from server.db.session import make_engine, session_factory
from server.main import create_app


def make_app() -> FastAPI:
    app = create_app(Settings(_env_file=None, LOG_LEVEL="warning"))
    app.include_router(router)
    app.state.db_sessions = session_factory(make_engine(os.environ["HISTORY_TEST_DB"]))
    return app

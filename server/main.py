"""The application factory: create_app(settings) -> FastAPI. No import-time globals."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from server.api import install_error_handlers, pages_router, rooms_router
from server.config import Settings
from server.rooms import Journal, RoomManager
from server.ws import router as ws_router


def create_app(
    settings: Settings | None = None,
    *,
    journal: Journal | None = None,
    clock: Callable[[], float] | None = None,
) -> FastAPI:
    settings = settings or Settings()
    logging.getLogger("server").setLevel(settings.LOG_LEVEL.upper())
    manager = (
        RoomManager(settings, journal) if clock is None
        else RoomManager(settings, journal, clock=clock)
    )

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        sweeper = asyncio.create_task(manager.run_sweeper())
        try:
            yield
        finally:
            sweeper.cancel()
            await manager.goodbye("restarting")

    app = FastAPI(title="Coffee Rush Online", lifespan=lifespan, docs_url="/docs",
                  redoc_url=None, openapi_url="/api/openapi.json")
    app.state.settings = settings
    app.state.rooms = manager
    app.state.templates = Jinja2Templates(directory=str(settings.TEMPLATES_DIR))
    install_error_handlers(app)
    app.include_router(rooms_router)
    app.include_router(ws_router)
    app.include_router(pages_router)
    app.mount("/static", StaticFiles(directory=settings.STATIC_DIR, check_dir=False), "static")
    return app

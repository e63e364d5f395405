"""The application factory: create_app(settings) -> FastAPI. No import-time globals.

The app is put together in server/wiring/: services.py (what it runs), lifespan.py (their
start and stop), middleware.py (the guards) and routes.py (routes and app.state)."""

from __future__ import annotations

from collections.abc import Callable

from fastapi import FastAPI

from server.admin import install as install_operations
from server.config import Settings
from server.rooms import Journal
from server.rooms.crowd import AddressCap
from server.wiring.lifespan import lifespan_of
from server.wiring.middleware import install_guards
from server.wiring.routes import install_routes, install_state
from server.wiring.services import build_services
from server.ws import App


def create_app(
    settings: Settings | None = None,
    *,
    journal: Journal | None = None,
    clock: Callable[[], float] | None = None,
) -> FastAPI:
    """The app. Without a `journal`, rooms are journaled to the database at DATABASE_URL
    (migrated at start-up) and the unfinished ones are restored from it; a `journal` given
    here (tests) replaces the database entirely."""
    settings = settings or Settings()
    services = build_services(settings, journal, clock)
    app = App(title="Coffee Rush Online", lifespan=lifespan_of(services), docs_url=None,
              redoc_url=None, openapi_url="/api/openapi.json",
              socket_addresses=AddressCap(settings.WS_PER_ADDRESS))
    install_guards(app, services)
    install_state(app, services)
    install_routes(app, services)
    install_operations(app)  # /admin, its audit feed and the refusals it shows
    return app

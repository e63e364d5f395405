"""The guards in front of every route and socket, outermost first."""

from __future__ import annotations

from server.api.games import IMPORT_PATH
from server.api.notify import UNSUBSCRIBE
from server.api.security import Guard
from server.cluster.routing import OwnerRouting
from server.ws import App

from .services import Services


def install_guards(app: App, services: Services) -> None:
    settings = services.settings
    if services.cluster is not None:  # inside the guard: only requests it lets through claim a room
        app.add_guard(OwnerRouting, ownership=services.cluster.ownership)
    app.add_guard(Guard, settings=settings, body_limits={IMPORT_PATH: settings.IMPORT_MAX_BODY},
                  link_paths=(UNSUBSCRIBE,))

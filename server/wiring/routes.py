"""The routes, pages, error answers and static files, and what they find on app.state."""

from __future__ import annotations

from collections import OrderedDict

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from server.accounts.turns import Turns
from server.api import install_error_handlers, pages_router, rooms_router
from server.api.accounts import router as accounts_router
from server.api.error_pages import install as install_error_pages
from server.api.games import router as games_router
from server.api.lesson import router as lesson_router
from server.api.me import router as me_router
from server.api.me_security import router as me_security_router
from server.api.notify import router as notify_router
from server.api.pages import script_json
from server.api.password_reset import router as password_reset_router
from server.api.players import router as players_router
from server.api.quickplay import router as quickplay_router
from server.api.reviews import router as reviews_router
from server.api.rules_data import router as rules_data_router
from server.api.rules_data import rules_data
from server.api.tournaments import router as tournaments_router
from server.rooms.ratelimit import RateLimit

from .services import Services


def install_state(app: FastAPI, services: Services) -> None:
    """What the routes read from app.state (the lifespan adds the rest once started)."""
    settings = services.settings
    app.state.settings = settings
    app.state.rooms = services.manager
    app.state.database = services.database  # None when a journal was injected
    app.state.account_turns = Turns()  # accounts' database work taken in turn (api/)
    app.state.metrics = services.metrics
    app.state.mail = services.mail
    app.state.quickplay = services.quickplay
    app.state.tournaments = services.tournaments
    app.state.addresses = None  # an AddressBook once the database is open (mail on)
    app.state.account_mail = None  # an AccountMail then too (server/notify/account_mail.py)
    app.state.templates = Jinja2Templates(directory=str(settings.TEMPLATES_DIR))
    app.state.templates.env.globals["rules_data_json"] = script_json(rules_data())
    app.state.lesson_guides = OrderedDict()  # api/lesson.py: the last pointer per lesson room
    clock = services.manager.clock
    app.state.address_limits = {  # per client address a minute (api/accounts.per_address)
        "reset": RateLimit(settings.RESET_RATE, 60, clock),
        "sessions": RateLimit(settings.SESSIONS_RATE, 60, clock)}


def install_routes(app: FastAPI, services: Services) -> None:
    install_error_handlers(app)
    install_error_pages(app)
    for router in (rooms_router, pages_router, games_router, reviews_router, players_router,
                   accounts_router, me_router, rules_data_router, notify_router, lesson_router,
                   quickplay_router, me_security_router, password_reset_router,
                   tournaments_router):
        app.include_router(router)
    app.mount("/static", StaticFiles(directory=services.settings.STATIC_DIR, check_dir=False),
              "static")

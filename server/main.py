"""The application factory: create_app(settings) -> FastAPI. No import-time globals."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from datetime import datetime, timedelta
from typing import Any

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from server.accounts.turns import Turns
from server.api import install_error_handlers, pages_router, rooms_router
from server.api.account_seats import watch as watch_accounts
from server.api.accounts import router as accounts_router
from server.api.error_pages import install as install_error_pages
from server.api.games import IMPORT_PATH
from server.api.games import router as games_router
from server.api.me import router as me_router
from server.api.notify import UNSUBSCRIBE
from server.api.notify import router as notify_router
from server.api.pages import script_json
from server.api.players import router as players_router
from server.api.rules_data import router as rules_data_router
from server.api.rules_data import rules_data
from server.api.security import Guard
from server.bots.driver import BotDriver
from server.bots.hint import Hints
from server.bots.pool import BotPool
from server.cluster.manager import ClusterRoomManager, redis_client
from server.cluster.routing import OwnerRouting
from server.cluster.settings import check_cluster_settings
from server.config import Settings
from server.db.models import utcnow
from server.memory import Collector, PauseWatch
from server.metrics import Metrics, TimedChooser, serve_metrics
from server.notify import AddressBook, MailWorker, mail_settings_ok
from server.persist import Database, RoomJournal, restore_rooms
from server.rooms import Journal, RoomManager
from server.rooms.timeouts import ClockKeeper
from server.ws import App
from server.ws.crowd import AddressCap


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
    logging.getLogger("server").setLevel(settings.LOG_LEVEL.upper())
    clocked: dict[str, Any] = {} if clock is None else {"clock": clock}
    cluster: ClusterRoomManager | None = None
    manager: RoomManager
    database: Database | None
    if settings.cluster:
        check_cluster_settings(settings, journal)
        cluster = ClusterRoomManager(settings, redis_client(settings), **clocked)
        manager = cluster
        database = Database(settings, fence=cluster.ownership.fence)
    else:
        manager = RoomManager(settings, journal, **clocked)
        database = Database(settings) if journal is None else None
    metrics = Metrics(manager, None if database is None else database.fallback_path)
    wall = wall_clock(clock)
    # E-mail (turn-based rooms): an SMTP server and a database to keep the outbox in.
    mail = (MailWorker(settings, manager, wall)
            if database is not None and mail_settings_ok(settings) else None)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        scraped = (await serve_metrics(metrics, settings.METRICS_HOST, settings.METRICS_PORT)
                   if settings.METRICS_PORT else None)
        bots = None
        workers = None
        if settings.BOT_WORKERS > 0:  # before any room is built: rooms copy the listeners
            workers = BotPool(settings.BOT_WORKERS, settings.BOT_DEADLINE)
            bots = BotDriver(TimedChooser(workers, metrics), settings, manager)
            manager.listeners.append(bots)
        app.state.bots = bots
        app.state.hints = Hints(workers, settings.BOT_BUDGET, settings.HINTS_IN_FLIGHT,
                                settings.HINTS_PER_ADDRESS)
        if mail is not None:  # before any room is restored: rooms copy the listeners
            manager.listeners.append(mail)
        if database is not None:
            try:
                if cluster is not None:  # before the database: a twin must not touch it
                    await cluster.ownership.take_identity()
                stored = await database.open()
                database.journal.on_commit = metrics.committed
                app.state.db_sessions = database.sessions  # history and replays read here
                room_journal = manager.journal = RoomJournal(database.journal)
                if cluster is None:
                    await restore_rooms(manager, room_journal, stored)
                else:  # rooms are claimed when asked for, or when their owner is gone
                    cluster.ownership.start(database, room_journal)
            except BaseException:
                await database.close()
                if bots is not None:
                    await bots.close()
                if scraped is not None:
                    await scraped.shutdown()
                raise
        mailing = None
        if mail is not None and database is not None:
            mail.sessions = database.sessions
            app.state.addresses = AddressBook(database.sessions, wall, mail.wake)
            metrics.live.mail_backlog = lambda: mail.backlog
            mailing = asyncio.create_task(mail.run())
        sweeper = asyncio.create_task(manager.run_sweeper())
        seats_watch = (asyncio.create_task(watch_accounts(manager, database.sessions,
                                                          settings.SWEEP_INTERVAL))
                       if database is not None else None)
        pauses = PauseWatch(metrics.collected)
        pauses.install()
        collector = (asyncio.create_task(Collector().run(settings.GC_INTERVAL))
                     if settings.GC_INTERVAL > 0 else None)
        keeper = ClockKeeper(manager, settings.TAKEOVER_LEVEL)
        clocks = asyncio.create_task(keeper.run())
        try:
            yield
        finally:
            sweeper.cancel()
            if seats_watch is not None:
                seats_watch.cancel()
            if mailing is not None and mail is not None:
                await mail.stop(mailing)  # before the database closes under it
            if collector is not None:
                collector.cancel()
            pauses.remove()
            clocks.cancel()
            await keeper.save_all()  # clocks stop while the server is down
            if bots is not None:
                manager.listeners.remove(bots)
                await bots.close()
            await manager.goodbye("restarting")
            if database is not None:
                await database.close()
            if cluster is not None:
                await cluster.redis.aclose()
            if scraped is not None:
                await scraped.shutdown()

    app = App(title="Coffee Rush Online", lifespan=lifespan, docs_url=None,
              redoc_url=None, openapi_url="/api/openapi.json",
              socket_addresses=AddressCap(settings.WS_PER_ADDRESS))
    if cluster is not None:  # inside the guard: only requests it lets through claim a room
        app.add_guard(OwnerRouting, ownership=cluster.ownership)
    app.add_guard(Guard, settings=settings, body_limits={IMPORT_PATH: settings.IMPORT_MAX_BODY},
                  link_paths=(UNSUBSCRIBE,))
    app.state.settings = settings
    app.state.rooms = manager
    app.state.database = database  # None when a journal was injected
    app.state.account_turns = Turns()  # accounts' database work taken in turn (api/)
    app.state.metrics = metrics
    app.state.mail = mail
    app.state.addresses = None  # an AddressBook once the database is open (mail on)
    app.state.templates = Jinja2Templates(directory=str(settings.TEMPLATES_DIR))
    app.state.templates.env.globals["rules_data_json"] = script_json(rules_data())
    install_error_handlers(app)
    install_error_pages(app)
    app.include_router(rooms_router)
    app.include_router(pages_router)
    app.include_router(games_router)
    app.include_router(players_router)
    app.include_router(accounts_router)
    app.include_router(me_router)
    app.include_router(rules_data_router)
    app.include_router(notify_router)
    app.mount("/static", StaticFiles(directory=settings.STATIC_DIR, check_dir=False), "static")
    return app


def wall_clock(clock: Callable[[], float] | None) -> Callable[[], datetime]:
    """UTC time for what is stored (the outbox, codes): the real one, or with an injected
    room clock (tests), now plus the seconds that clock has run since the app was made."""
    if clock is None:
        return utcnow
    start, at = utcnow(), clock()
    return lambda: start + timedelta(seconds=clock() - at)

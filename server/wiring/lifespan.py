"""The app's lifespan: start the services in order (metrics, bots, database and the rooms
it restores, mail, background loops), and stop them in the order that keeps everything
saved (clocks before the bots, the bots before the goodbye, the database last but one)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager

import uvicorn
from fastapi import FastAPI

from server.api.account_seats import watch as watch_accounts
from server.bots.driver import BotDriver
from server.bots.hint_requests import Hints
from server.bots.pool import BotPool
from server.history.reviews import Reviews
from server.memory import Collector, PauseWatch
from server.metrics import TimedChooser, serve_metrics
from server.notify import AccountMail, AddressBook
from server.persist import RoomJournal, restore_rooms
from server.rooms.timeouts import ClockKeeper

from .services import Services


@dataclasses.dataclass
class Running:
    """What a started app has to stop."""

    scraped: uvicorn.Server | None = None  # the metrics server
    bots: BotDriver | None = None
    workers: BotPool | None = None
    reviewing: asyncio.Task[None] | None = None  # the expert's reviews (history/reviews.py)
    mailing: asyncio.Task[None] | None = None
    sweeper: asyncio.Task[None] | None = None
    matching: asyncio.Task[None] | None = None  # quick play's loop
    scheduling: asyncio.Task[None] | None = None  # the tournaments' scheduler
    following: asyncio.Task[None] | None = None  # their pages' reads (other instances')
    seats_watch: asyncio.Task[None] | None = None
    collector: asyncio.Task[None] | None = None
    pauses: PauseWatch | None = None
    keeper: ClockKeeper | None = None
    clocks: asyncio.Task[None] | None = None


def lifespan_of(services: Services) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        running = Running()
        settings, metrics = services.settings, services.metrics
        running.scraped = (await serve_metrics(metrics, settings.METRICS_HOST,
                                               settings.METRICS_PORT)
                           if settings.METRICS_PORT else None)
        start_bots(app, services, running)
        await open_database(app, services, running)
        start_background(app, services, running)
        try:
            yield
        finally:
            await stop(services, running)

    return lifespan


def start_bots(app: FastAPI, services: Services, running: Running) -> None:
    """Bots and hints; mail's listener too. Before any room is built or restored: rooms copy
    the listeners."""
    settings, manager = services.settings, services.manager
    workers = None
    if settings.BOT_WORKERS > 0:
        workers = BotPool(settings.BOT_WORKERS, settings.BOT_DEADLINE)
        running.bots = BotDriver(TimedChooser(workers, services.metrics), settings, manager)
        manager.listeners.append(running.bots)
    app.state.bots = running.bots
    app.state.bot_pool = workers  # None without bots (its queues: /admin)
    running.workers = workers
    app.state.reviews = None  # once the database is open (start_background)
    app.state.hints = Hints(workers, settings.BOT_BUDGET, settings.HINTS_IN_FLIGHT,
                            settings.HINTS_PER_ADDRESS)
    if services.mail is not None:
        manager.listeners.append(services.mail)
    if services.database is not None:
        manager.listeners.append(services.tournaments)  # their tables' ends and late seats


async def open_database(app: FastAPI, services: Services, running: Running) -> None:
    """Open (and migrate) the database, journal rooms to it and restore the unfinished ones
    (in cluster mode, rooms are claimed when asked for, or when their owner is gone). If
    that fails, what was started is stopped."""
    database, cluster, manager = services.database, services.cluster, services.manager
    if database is None:
        return
    try:
        if cluster is not None:  # before the database: a twin must not touch it
            await cluster.ownership.take_identity()
        stored = await database.open()
        database.journal.on_commit = services.metrics.committed
        app.state.db_sessions = database.sessions  # history and replays read here
        app.state.db_engine = database.engine  # a guest's name check reads here
        app.state.db_reader = database.reader  # or here, on SQLite
        room_journal = manager.journal = RoomJournal(database.journal)
        if cluster is None:
            await restore_rooms(manager, room_journal, stored)
        else:
            cluster.ownership.start(database, room_journal)
    except BaseException:
        await database.close()
        if running.bots is not None:
            await running.bots.close()
        if running.scraped is not None:
            await running.scraped.shutdown()
        raise


def start_background(app: FastAPI, services: Services, running: Running) -> None:
    """The loops that run while the app does: mail, the sweeper, the expert's reviews, the
    accounts' watch, the garbage collector's pacing and the turn clocks."""
    settings, manager, database, mail = (services.settings, services.manager,
                                         services.database, services.mail)
    if mail is not None and database is not None:
        mail.sessions = database.sessions
        app.state.addresses = AddressBook(database.sessions, services.wall, mail.wake)
        app.state.account_mail = AccountMail(database.sessions, services.wall, mail.wake)
        services.metrics.live.mail_backlog = lambda: mail.backlog
        running.mailing = asyncio.create_task(mail.run())
    running.sweeper = asyncio.create_task(manager.run_sweeper())
    if database is not None:  # without bot workers, a review is refused review_off
        app.state.reviews = reviews = Reviews(
            running.workers, database.sessions, settings.REVIEW_WORK, settings.REVIEW_SEED,
            settings.REVIEW_QUEUE, settings.REVIEWS_PER_ADDRESS, settings.REVIEW_LEASE,
            settings.REVIEW_RATED, me=settings.instance, sweep=settings.SWEEP_INTERVAL)
        if running.workers is not None:
            running.reviewing = asyncio.create_task(reviews.run())
    if database is not None:
        services.quickplay.sessions = database.sessions
        running.matching = asyncio.create_task(services.quickplay.run())
        services.tournaments.sessions = database.sessions
        running.scheduling = asyncio.create_task(services.tournaments.run())
        running.following = asyncio.create_task(services.tournaments.follow())
        running.seats_watch = asyncio.create_task(
            watch_accounts(manager, database.sessions, settings.SWEEP_INTERVAL,
                           app.state.quickplay))
    running.pauses = PauseWatch(services.metrics.collected)
    running.pauses.install()
    if settings.GC_INTERVAL > 0:
        running.collector = asyncio.create_task(Collector().run(settings.GC_INTERVAL))
    running.keeper = ClockKeeper(manager, settings.TAKEOVER_LEVEL)
    running.clocks = asyncio.create_task(running.keeper.run())


async def stop(services: Services, running: Running) -> None:
    manager, mail = services.manager, services.mail
    if running.sweeper is not None:
        running.sweeper.cancel()
    if running.reviewing is not None:  # before the pool and the database close under it
        running.reviewing.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await running.reviewing
    # The loops that query the database end before it closes under them.
    await ended(running.matching, running.scheduling, running.following, running.seats_watch)
    if running.mailing is not None and mail is not None:
        await mail.stop(running.mailing)  # before the database closes under it
    if running.collector is not None:
        running.collector.cancel()
    if running.pauses is not None:
        running.pauses.remove()
    if running.clocks is not None:
        running.clocks.cancel()
    if running.keeper is not None:
        await running.keeper.save_all()  # clocks stop while the server is down
    if running.bots is not None:
        manager.listeners.remove(running.bots)
        await running.bots.close()
    await manager.goodbye("restarting")
    if services.database is not None:
        await services.database.close()
    if services.cluster is not None:
        await services.cluster.redis.aclose()
    if running.scraped is not None:
        await running.scraped.shutdown()


async def ended(*tasks: asyncio.Task[None] | None) -> None:
    """Cancel these tasks and wait (a few seconds at most) until they have ended."""
    started = [task for task in tasks if task is not None]
    for task in started:
        task.cancel()
    if started:
        await asyncio.wait(started, timeout=5)

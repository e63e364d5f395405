"""The operators' page (/admin): what the server is doing, and what an operator may do about
it: close a room, disable an account, mute a player at every table, announce something in
every lobby and table. Accounts are made operators by the host (`coffee-rush users
operator NAME`); every action is audited in `operator_actions`.

`install(app)` adds it to an app made by server.main.create_app: the routes, the watch on
refusals, and (in the app's lifespan) the feed every instance follows and, in a cluster,
the reports each instance publishes."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI

from server.rooms.ratelimit import RateLimit

from .feed import Operations
from .refusals import Watch
from .routes import ACTIONS_PER_MINUTE, report_of, router
from .snapshot import database_migration

__all__ = ["install"]


def install(app: FastAPI) -> None:
    manager = app.state.rooms
    app.state.muted_accounts = muted = set[int]()
    app.state.operations = ops = Operations(manager, muted)
    app.state.operator_actions = RateLimit(ACTIONS_PER_MINUTE, 60.0, manager.clock)
    app.state.operator_reports = None
    app.state.metrics.socket_refusal = ops.refusals.socket
    app.add_middleware(Watch, refusals=ops.refusals)  # outside the Guard: sees its refusals
    app.include_router(router)
    inner = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[Any]:
        async with inner(app) as state:
            tasks = await _start(app, ops)
            try:
                yield state
            finally:
                for task in tasks:
                    task.cancel()

    app.router.lifespan_context = lifespan


async def _start(app: FastAPI, ops: Operations) -> list[asyncio.Task[None]]:
    tasks = []
    sessions = getattr(app.state, "db_sessions", None)
    if sessions is not None:
        async with sessions() as session:
            await ops.load(session)
            ops.migration = await database_migration(session)
        tasks.append(asyncio.create_task(ops.run(sessions)))
    if app.state.settings.cluster:  # Redis is imported by a server in cluster mode only
        from .cluster import Reports

        manager = app.state.rooms
        reports = Reports(manager.redis, manager.instance, lambda: report_of(app))
        app.state.operator_reports = reports
        tasks.append(asyncio.create_task(reports.run()))
    return tasks

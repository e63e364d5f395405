"""What one instance reports to its operators: its rooms (players, spectators, mode, age),
who is online, its mail outbox and SMTP server, its bot workers' queues, its recent
refusals, its version and migrations, and its health. Plain data (JSON), made on demand;
in a cluster every instance publishes its own (server/admin/cluster.py)."""

from __future__ import annotations

import functools
import importlib.metadata
import time
import tomllib
from typing import Any

from alembic.script import ScriptDirectory
from fastapi import FastAPI
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from server.db.migrate import VERSION_TABLE, alembic_config
from server.paths import CHECKOUT
from server.rooms import Room
from server.rules.data import RULES_VERSION

from .refusals import Refusals

DISTRIBUTION = "coffee-rush-online"


@functools.cache
def version() -> str:
    """The installed package's version, or (served from a checkout) pyproject.toml's."""
    try:
        return importlib.metadata.version(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        pass
    try:
        with (CHECKOUT / "pyproject.toml").open("rb") as f:
            return str(tomllib.load(f)["project"]["version"])
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return "unknown"


@functools.cache
def head_migration() -> str:
    """The newest migration this code carries."""
    return str(ScriptDirectory.from_config(alembic_config("")).get_current_head())


async def database_migration(session: AsyncSession) -> str | None:
    """The migration the database is at (None: not migrated)."""
    return await session.scalar(text(f"SELECT version_num FROM {VERSION_TABLE}"))


def room_report(room: Room, now: float, instance: str) -> dict[str, Any]:
    return {
        "code": room.display_code,
        "status": room.status,
        "mode": room.options.mode,
        "public": room.options.public,
        "players": [{"seat": s.index, "name": s.name, "bot": s.bot, "account": s.account_id,
                     "online": s.bot is not None or s.conn is not None}
                    for s in room.seats if s.name is not None or s.bot is not None],
        "spectators": len(room.spectators),
        "age_s": max(0, round(now - room.created_at)),
        "instance": instance,
    }


def health(app: FastAPI) -> dict[str, Any]:
    """/healthz's verdict, without its counts."""
    database = app.state.database
    db = "none" if database is None else "unreachable" if database.degraded else "ok"
    parts = {"database": db, **app.state.rooms.health()}
    return {"status": "degraded" if "unreachable" in parts.values() else "ok", **parts}


def bot_queue(app: FastAPI) -> dict[str, Any] | None:
    pool = getattr(app.state, "bot_pool", None)
    return None if pool is None else {"workers": pool.queue()}


def mail(app: FastAPI) -> dict[str, Any]:
    settings, worker = app.state.settings, app.state.mail
    smtp = (f"{settings.SMTP_HOST}:{settings.SMTP_PORT} ({settings.SMTP_SECURITY})"
            if settings.SMTP_HOST else None)
    if worker is None:
        return {"on": False, "smtp": smtp}
    return {"on": True, "smtp": smtp, "backlog": worker.backlog, "sent": worker.sent,
            "smtp_state": "failing" if worker.failing else "ok"}


def instance_report(app: FastAPI, refusals: Refusals,
                    migration: str | None) -> dict[str, Any]:
    settings, manager = app.state.settings, app.state.rooms
    now = manager.clock()
    rooms = [room_report(room, now, settings.instance) for room in list(manager.rooms.values())]
    players = sum(1 for r in rooms for p in r["players"] if p["online"] and p["bot"] is None)
    return {
        "instance": settings.instance,
        "mode": "cluster" if settings.cluster else "single",
        "at": time.time(),
        "health": health(app),
        "version": version(),
        "rules_version": RULES_VERSION,
        "migration": {"database": migration, "code": head_migration()},
        "rooms": rooms,
        "online": {"players": players,
                   "spectators": sum(r["spectators"] for r in rooms),
                   "sockets": manager.connection_count()},
        "mail": mail(app),
        "bots": bot_queue(app),
        "refusals": refusals.report(),
    }

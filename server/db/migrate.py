"""Run the Alembic migrations from code: the server upgrades its database at start-up.

Before migrating, the database is checked to be ours: empty, or versioned by these
migrations. One holding another application's tables, Coffee Rush tables with no
`alembic_version`, or a revision these migrations do not know is refused
(DatabaseRefused), never shared or migrated over.
"""

from __future__ import annotations

import asyncio

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, pool, text
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.ext.asyncio import create_async_engine

from server.paths import shipped

from .models import Base
from .session import make_engine, sqlite_path

MIGRATIONS = shipped("migrations")
VERSION_TABLE = "alembic_version"


class DatabaseRefused(RuntimeError):
    """The server must not use this database; the message is the cause, in one line."""


def where(url: str) -> str:
    """The URL to name in messages: never its password."""
    return make_url(url).render_as_string(hide_password=True)


def alembic_config(url: str) -> Config:
    # No ini file: Alembic must not reconfigure the application's logging.
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    # Through attributes, not set_main_option: ConfigParser would choke on a '%' in a password.
    cfg.attributes["url"] = url
    cfg.attributes["embedded"] = True
    return cfg


def upgrade(url: str, revision: str = "head") -> None:
    """Bring the database at `url` up to `revision`. Blocking: call it outside the event loop
    (or use `upgrade_async`), because the migration environment runs its own loop.
    Raises DatabaseRefused if the database is not ours (see check_ours)."""
    cfg = alembic_config(url)
    asyncio.run(_check(url, cfg))
    command.upgrade(cfg, revision)


async def _check(url: str, cfg: Config) -> None:
    known = {rev.revision for rev in ScriptDirectory.from_config(cfg).walk_revisions()}
    path = sqlite_path(url)
    if path is None:
        engine = make_engine(url, poolclass=pool.NullPool)
    elif not path.exists():
        return  # a new, empty database
    else:  # read-only and without our pragmas: a file we refuse is never written to
        engine = create_async_engine(f"sqlite+aiosqlite:///file:{path}?mode=ro&uri=true",
                                     poolclass=pool.NullPool)
    try:
        async with engine.connect() as connection:
            reason = await connection.run_sync(check_ours, known)
    finally:
        await engine.dispose()
    if reason is not None:
        raise DatabaseRefused(f"the database at {where(url)} {reason}")


def check_ours(connection: Connection, known: set[str]) -> str | None:
    """Why the database is not one these migrations may touch, or None if it is."""
    tables = set(inspect(connection).get_table_names())
    if VERSION_TABLE in tables:
        revisions = {row[0] for row in connection.execute(
            text(f"SELECT version_num FROM {VERSION_TABLE}"))}
        unknown = sorted(revisions - known)
        if unknown:
            return (f"is at migration {', '.join(unknown)}, which this server does not know "
                    "(another application's database, or a newer Coffee Rush's)")
        return None
    if not tables:
        return None
    ours = sorted(tables & set(Base.metadata.tables))
    if ours:
        return (f"has Coffee Rush tables ({', '.join(ours)}) but no {VERSION_TABLE} table, "
                "so their schema version is unknown; restore it (alembic stamp) after "
                "checking, or use another database")
    names = sorted(tables)
    shown = ", ".join(names[:5]) + (", ..." if len(names) > 5 else "")
    return (f"holds another application's tables ({shown}); point DATABASE_URL at an "
            "empty database or a Coffee Rush one")


def downgrade(url: str, revision: str) -> None:
    command.downgrade(alembic_config(url), revision)


async def upgrade_async(url: str, revision: str = "head") -> None:
    """`upgrade` from inside a running event loop (e.g. a FastAPI lifespan)."""
    await asyncio.to_thread(upgrade, url, revision)


async def downgrade_async(url: str, revision: str) -> None:
    await asyncio.to_thread(downgrade, url, revision)

"""Alembic environment: async engines, URL from the caller or from DATABASE_URL."""

from __future__ import annotations

import asyncio
import os
from logging.config import fileConfig

from alembic import context
from sqlalchemy import pool, text
from sqlalchemy.engine import Connection, make_url

from server.db.models import Base
from server.db.session import make_engine

DEFAULT_URL = "sqlite+aiosqlite:///./data/coffee-rush.db"

config = context.config
if config.config_file_name is not None and not config.attributes.get("embedded"):
    fileConfig(config.config_file_name)

target_metadata = Base.metadata


def database_url() -> str:
    """server.db.migrate passes the URL in; the alembic CLI reads DATABASE_URL."""
    return (
        config.attributes.get("url")
        or os.environ.get("DATABASE_URL")
        or config.get_main_option("sqlalchemy.url")
        or DEFAULT_URL
    )


def configure(**kwargs: object) -> None:
    context.configure(
        target_metadata=target_metadata,
        compare_type=True,
        # SQLite cannot ALTER most things; batch mode rebuilds the table instead.
        render_as_batch=make_url(database_url()).get_backend_name() == "sqlite",
        **kwargs,
    )


def run_offline() -> None:
    configure(url=database_url(), literal_binds=True, dialect_opts={"paramstyle": "named"})
    with context.begin_transaction():
        context.run_migrations()


def do_run(connection: Connection) -> None:
    sqlite = connection.dialect.name == "sqlite"
    if sqlite:
        # A batch migration rebuilds a table (copy, drop, rename): with foreign keys
        # enforced, dropping the old table would cascade-delete every row pointing at it.
        # The pragma only works outside a transaction, hence before Alembic opens one.
        connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
        connection.commit()
    configure(connection=connection)
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":
            # Instances of a cluster start together: one migrates, the others wait for it.
            connection.execute(text("SELECT pg_advisory_xact_lock(7226354)"))
        context.run_migrations()
        if sqlite:
            broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
            if broken:
                raise RuntimeError(f"migration left rows without a parent: {broken[:5]}")
    if sqlite:
        connection.exec_driver_sql("PRAGMA foreign_keys=ON")


async def run_online() -> None:
    engine = make_engine(database_url(), poolclass=pool.NullPool)
    try:
        async with engine.connect() as connection:
            await connection.run_sync(do_run)
    finally:
        await engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    asyncio.run(run_online())

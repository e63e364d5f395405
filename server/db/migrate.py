"""Run the Alembic migrations from code: the server upgrades its database at start-up."""

from __future__ import annotations

import asyncio
from pathlib import Path

from alembic import command
from alembic.config import Config

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"


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
    (or use `upgrade_async`), because the migration environment runs its own loop."""
    command.upgrade(alembic_config(url), revision)


def downgrade(url: str, revision: str) -> None:
    command.downgrade(alembic_config(url), revision)


async def upgrade_async(url: str, revision: str = "head") -> None:
    """`upgrade` from inside a running event loop (e.g. a FastAPI lifespan)."""
    await asyncio.to_thread(upgrade, url, revision)


async def downgrade_async(url: str, revision: str) -> None:
    await asyncio.to_thread(downgrade, url, revision)

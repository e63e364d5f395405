"""A migrated PostgreSQL database in a fraction of a second: a copy of a template.

Running the migrations takes seconds on PostgreSQL (2-5 s on a busy 2-core machine) and
the suite needs a migrated database dozens of times (each cluster, each migrated test
database). The template is migrated once per version of migrations/ (its name carries a
digest of those files, so a changed migration makes a new one) and copied with CREATE
DATABASE ... TEMPLATE, which gives the same schema, alembic_version included. Concurrent
workers (pytest-xdist, a benchmark's process) take an advisory lock, so only one makes it.
"""

from __future__ import annotations

import hashlib

from sqlalchemy import create_engine, text
from sqlalchemy.engine import URL, Connection, make_url

from server.db.migrate import MIGRATIONS, upgrade

LOCK = 0x636F_6666  # pg_advisory_lock key: one template maker at a time


def digest() -> str:
    """A short digest of the migrations (every file's path and bytes)."""
    h = hashlib.sha256()
    for path in sorted(p for p in MIGRATIONS.rglob("*.py") if "__pycache__" not in p.parts):
        h.update(str(path.relative_to(MIGRATIONS)).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:12]


def _admin(url: URL) -> URL:
    return url.set(drivername="postgresql+psycopg", database="postgres")


def _exists(conn: Connection, name: str) -> bool:
    return conn.scalar(text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": name}) == 1


def migrated_copy(url: str, template_of: str | None = None) -> None:
    """Replace the database of `url` (dropped if it exists, its connections ended) with a
    copy of the migrated template. The template is named after the database of
    `template_of` (default `url`) and the migrations' digest."""
    target = make_url(url)
    base = make_url(template_of or url).database or "coffee_rush"
    template = f"{base[:40]}_tpl_{digest()}"
    engine = create_engine(_admin(target), isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": LOCK})
            try:
                if not _exists(conn, template):
                    making = f"{template}_new"
                    conn.execute(text(f'DROP DATABASE IF EXISTS "{making}" WITH (FORCE)'))
                    conn.execute(text(f'CREATE DATABASE "{making}"'))
                    upgrade(target.set(drivername="postgresql+asyncpg", database=making)
                            .render_as_string(hide_password=False))
                    conn.execute(text(f'ALTER DATABASE "{making}" RENAME TO "{template}"'))
                conn.execute(text(f'DROP DATABASE IF EXISTS "{target.database}" WITH (FORCE)'))
                conn.execute(text(f'CREATE DATABASE "{target.database}" TEMPLATE "{template}"'))
            finally:
                conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": LOCK})
    finally:
        engine.dispose()

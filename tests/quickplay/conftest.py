# An empty SQLite and PostgreSQL database (db_url), migrated (engine), its sessions.
from tests.db.conftest import db_url, engine, migrated_url, sessions  # noqa: F401

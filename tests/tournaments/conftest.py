from tests.db.conftest import db_url  # noqa: F401  (an empty SQLite and PostgreSQL database)

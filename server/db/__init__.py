"""Persistence: finished games, the in-progress journal, history and replays.

    models.py    the tables (the schema itself comes from migrations/)
    session.py   make_engine(url), session_factory(engine)
    migrate.py   upgrade(url) / upgrade_async(url), downgrade(url, rev)
    store.py     small query functions; the caller owns the transaction
    journal.py   Journal: group-committed, ordered writes from the rooms
    fallback.py  the local file that holds writes while the database is down
    ops.py       the journal's operations as JSON lines
    rows.py      the values of the rows they write (one builder per table)
    sqlite_writer.py, sqlite_short.py   the journal's transactions on SQLite
    rawinsert.py values bound as the ORM binds them; PostgreSQL's batch of actions
    records.py   the plain values going in and out
"""

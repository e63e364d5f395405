"""Persistence: finished games, the in-progress journal, history and replays.

    models.py    the tables (the schema itself comes from migrations/)
    session.py   make_engine(url), session_factory(engine)
    migrate.py   upgrade(url) / upgrade_async(url), downgrade(url, rev) / downgrade_async
    store.py     small query functions; the caller owns the transaction
    journal.py   Journal: group-committed, ordered writes from the rooms
    fallback.py  the local file that holds writes while the database is down
    errors.py    whether a failed write is an outage or that write's own refusal
    ops.py       the journal's operations as JSON lines
    rows.py      the values of the rows they write (one builder per table)
    sqlite_writer.py, sqlite_short.py   the journal's transactions on SQLite
    postgres_writer.py                  the journal's transactions on PostgreSQL
    rawinsert.py values bound as the ORM binds them; PostgreSQL's batch of actions
    records.py   the plain values going in and out
    ratings.py   who is rated in a finished game and how the ratings move (OpenSkill)
    profiles.py  what the profile pages and the leaderboard read
    reviews.py   the stored expert reviews of finished games (the row is the claim)
    backup.py    `coffee-rush backup` / `restore`: every table as JSON lines
"""

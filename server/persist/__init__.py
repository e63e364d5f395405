"""The glue between the live rooms and the database: nothing accepted is lost.

    journal.py   RoomJournal: the rooms' Journal hooks written through server.db's Journal
    recovery.py  rebuild the unfinished rooms at start-up by replaying their actions
    database.py  Database: migrate, open the journal, load what to recover, close
"""

from .database import Database
from .journal import RoomJournal
from .recovery import restore_rooms

__all__ = ["Database", "RoomJournal", "restore_rooms"]

"""What a failed database write means: an outage (keep the write in the fallback file and
copy it in later) or a refusal of that write itself (retrying would fail the same way).

Decided by what the database says first (PostgreSQL's SQLSTATE, SQLite's result code),
then by the kind of exception. What is not known to be the write's own fault counts as an
outage: an operation kept in the fallback file too long is harmless, since the copy-back
sets aside for good whatever the database still refuses once it is back.
"""

from __future__ import annotations

import asyncio
import sqlite3

from sqlalchemy import exc as sa

from .records import JournalConflict, UnknownRoom

# PostgreSQL SQLSTATE classes meaning "cannot take writes now": connection exception,
# invalid authorization, invalid catalog (database dropped or renamed), transaction
# rollback (serialization, deadlock), insufficient resources (disk full, too many
# connections), object not in prerequisite state (lock not available), operator
# intervention (shutdown, statement timeout), system error (I/O), configuration file
# error, internal error.
PG_OUTAGE_CLASSES = frozenset({"08", "28", "3D", "40", "53", "55", "57", "58", "F0", "XX"})
# ...and single codes from other classes: privilege revoked, a read-only (standby) server,
# a session ended for idling in a transaction.
PG_OUTAGE_CODES = frozenset({"42501", "25006", "25P03"})

# SQLite primary result codes meaning the same: permission, busy, locked, out of memory,
# read-only, interrupted, I/O error, corrupt, full, cannot open, protocol, auth, not a db.
SQLITE_OUTAGE_CODES = frozenset({3, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15, 23, 26})

# Refusals of the write itself, when the database gave no code to go by.
OWN_FAULT = (
    JournalConflict, UnknownRoom, sa.IntegrityError, sa.DataError, sa.ProgrammingError,
    sa.NotSupportedError, ValueError, KeyError, TypeError,
)
# Connection-level failures, when the database gave no code to go by.
OUTAGE = (
    sa.OperationalError, sa.InterfaceError, sa.DisconnectionError, sa.TimeoutError,
    sa.InternalError, OSError, TimeoutError, asyncio.TimeoutError,
)


def is_unavailable(exc: BaseException) -> bool:
    """True if the write failed because the database cannot take writes now."""
    if not isinstance(exc, Exception):
        return False  # cancellation, KeyboardInterrupt, SystemExit: not ours to keep
    if isinstance(exc, sa.DBAPIError) and exc.connection_invalidated:
        return True
    verdict = _by_code(exc)
    if verdict is not None:
        return verdict
    if isinstance(exc, OUTAGE):
        return True
    return not isinstance(exc, OWN_FAULT)


def _by_code(exc: BaseException) -> bool | None:
    """The verdict of the first database code found along the exception's chain."""
    seen: set[int] = set()
    todo: list[BaseException | None] = [exc]
    while todo:
        e = todo.pop(0)
        if e is None or id(e) in seen:
            continue
        seen.add(id(e))
        sqlstate = getattr(e, "sqlstate", None) or getattr(e, "pgcode", None)
        if isinstance(sqlstate, str) and len(sqlstate) == 5:
            return sqlstate[:2] in PG_OUTAGE_CLASSES or sqlstate in PG_OUTAGE_CODES
        if isinstance(e, sqlite3.Error) and getattr(e, "sqlite_errorcode", None) is not None:
            return e.sqlite_errorcode & 0xFF in SQLITE_OUTAGE_CODES
        todo += [getattr(e, "orig", None), e.__cause__, e.__context__]
    return None


# Waits that ran out: PostgreSQL's lock_not_available and query_canceled (lock_timeout and
# statement_timeout), SQLite's busy and locked.
PG_WAIT_CODES = frozenset({"55P03", "57014"})
SQLITE_WAIT_CODES = frozenset({5, 6})


def waited_too_long(exc: BaseException) -> bool:
    """True if a statement gave up waiting for its turn (a lock, or a connection from the
    pool) within DB_TIMEOUT, rather than because the database is away: a burst of requests
    queueing on one lock (server/notify/addresses.py)."""
    if isinstance(exc, sa.TimeoutError):  # no connection free in the pool
        return True
    e = getattr(exc, "orig", None) if isinstance(exc, sa.DBAPIError) else None
    if e is None:
        return False
    sqlstate = getattr(e, "sqlstate", None) or getattr(e, "pgcode", None)
    if isinstance(sqlstate, str):
        return sqlstate in PG_WAIT_CODES
    code = getattr(e, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in SQLITE_WAIT_CODES
    return "database is locked" in str(e)


def cancelling() -> bool:
    """Whether the running task is being cancelled (a database driver may turn the
    cancellation into its own error, which a retrying loop must not swallow)."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0

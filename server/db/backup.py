"""`coffee-rush backup FILE` and `coffee-rush restore FILE`: every table, as JSON lines.

One format for both databases, so a backup of SQLite restores into PostgreSQL (a host
moving up) and back. The backup is consistent while the server runs: on SQLite it reads
a copy made by SQLite's online backup API; on PostgreSQL it reads every table in one
REPEATABLE READ transaction (one snapshot, as pg_dump does). The journal of unfinished
rooms is a table like the others, so their games resume after a restore.

The file: a header line (format, the schema's migration, where from), then per table a
line naming it and its columns followed by one JSON array per row, then an end line with
the row counts (a cut-off file is refused). A name ending in .gz is gzipped.
"""

from __future__ import annotations

import asyncio
import base64
import gzip
import sqlite3
import tempfile
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import IO, Any

import orjson
from alembic.util import CommandError
from sqlalchemy import Column, LargeBinary, pool, select, text
from sqlalchemy.engine import Connection, make_url

from .migrate import VERSION_TABLE, upgrade
from .models import Base, UTCDateTime
from .session import make_engine, sqlite_path

FORMAT = "coffee-rush-backup"
VERSION = 1
BATCH = 1000


class BackupError(RuntimeError):
    """The file is not a whole backup, or the database cannot take it; one line."""


def _open(path: Path, mode: str, gzipped: bool) -> IO[bytes]:
    if gzipped:
        return gzip.GzipFile(path, mode + "b")  # type: ignore[return-value]
    return path.open(mode + "b")


def _encode(column: Column[Any], value: Any) -> Any:
    if value is None:
        return None
    if isinstance(column.type, LargeBinary):
        return base64.b64encode(value).decode()
    return value  # datetimes as ISO 8601 text, JSON columns as they are (orjson)


def _decode(column: Column[Any], value: Any) -> Any:
    if value is None:
        return None
    if isinstance(column.type, UTCDateTime):
        return datetime.fromisoformat(value)
    if isinstance(column.type, LargeBinary):
        return base64.b64decode(value)
    return value


def _line(obj: Any) -> bytes:
    return orjson.dumps(obj) + b"\n"


def _dump(connection: Connection, out: IO[bytes], source: str) -> dict[str, int]:
    revision = connection.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalar_one()
    out.write(_line({"format": FORMAT, "version": VERSION, "revision": revision,
                     "from": source}))
    counts: dict[str, int] = {}
    for table in Base.metadata.sorted_tables:
        columns = list(table.columns)
        out.write(_line({"table": str(table.name), "columns": [str(c.name) for c in columns]}))
        rows = connection.execution_options(yield_per=BATCH).execute(
            select(table).order_by(*table.primary_key.columns))
        n = 0
        for row in rows:
            out.write(_line([_encode(c, v) for c, v in zip(columns, row, strict=True)]))
            n += 1
        counts[str(table.name)] = n
    out.write(_line({"end": counts}))
    return counts


async def _dump_from(url: str, out: IO[bytes], source: str) -> dict[str, int]:
    # orjson reads the JSON columns (every game's actions): the json module is ~3x slower.
    engine = make_engine(url, poolclass=pool.NullPool, json_deserializer=orjson.loads)
    try:
        async with engine.connect() as connection:
            if make_url(url).get_backend_name() == "postgresql":
                connection = await connection.execution_options(
                    isolation_level="REPEATABLE READ", postgresql_readonly=True)
            return await connection.run_sync(_dump, out, source)
    finally:
        await engine.dispose()


def backup(url: str, path: Path) -> dict[str, int]:
    """Write every table of the database at `url` to `path` (whole, or not at all: it is
    written beside it and renamed); the rows per table."""
    part = path.with_name(path.name + ".part")
    try:
        with _open(part, "w", path.suffix == ".gz") as out:
            counts = _backup_to(url, out, part.parent)
        part.replace(path)
    finally:
        part.unlink(missing_ok=True)
    return counts


def _backup_to(url: str, out: IO[bytes], scratch: Path) -> dict[str, int]:
    source = make_url(url).get_backend_name()
    file = sqlite_path(url)
    if file is None:
        return asyncio.run(_dump_from(url, out, source))
    if not file.exists():
        raise BackupError(f"there is no database at {file}")
    with tempfile.TemporaryDirectory(prefix="coffee-rush-backup-", dir=scratch) as tmp:
        copy = Path(tmp) / "snapshot.db"
        live, snapshot = sqlite3.connect(file, timeout=30), sqlite3.connect(copy)
        try:
            live.backup(snapshot)  # one consistent copy, while the server writes on
        finally:
            live.close()
            snapshot.close()
        return asyncio.run(_dump_from(f"sqlite+aiosqlite:///{copy}", out, source))


def _sections(lines: Iterator[bytes]) -> Iterator[tuple[str, list[str], list[list[Any]]]]:
    """(table, columns, a batch of rows) in file order; BackupError unless the end line
    comes, with counts that match."""
    table, columns, batch = "", list[str](), list[list[Any]]()
    counts: dict[str, int] = {}
    for raw in lines:
        item = orjson.loads(raw)
        if isinstance(item, list):
            if not table:
                raise BackupError("a row comes before any table: not a backup file")
            batch.append(item)
            counts[table] += 1
            if len(batch) == BATCH:
                yield table, columns, batch
                batch = []
            continue
        if batch:
            yield table, columns, batch
            batch = []
        if "end" in item:
            if item["end"] != counts:
                raise BackupError(f"the rows do not match the backup's counts ({item['end']})")
            return
        table, columns = item["table"], item["columns"]
        counts[table] = 0
    raise BackupError("the file ends before the backup does (cut off?)")


def _is_empty(connection: Connection) -> bool:
    return all(connection.execute(select(t).limit(1)).first() is None
               for t in Base.metadata.sorted_tables)


def _load(connection: Connection, lines: Iterator[bytes]) -> dict[str, int]:
    if not _is_empty(connection):
        raise BackupError("the database already holds Coffee Rush data: restore into an "
                          "empty one")
    counts: dict[str, int] = {}
    for name, names, rows in _sections(lines):
        table = Base.metadata.tables.get(name)
        if table is None:
            raise BackupError(f"the backup has a table this server does not know: {name}")
        columns = [table.columns[n] for n in names]
        connection.execute(table.insert(), [
            {c.name: _decode(c, v) for c, v in zip(columns, row, strict=True)} for row in rows])
        counts[name] = counts.get(name, 0) + len(rows)
    if connection.dialect.name == "postgresql":  # the next ids follow the restored ones
        for table in Base.metadata.sorted_tables:
            keys = list(table.primary_key.columns)
            if len(keys) == 1 and keys[0].type.python_type is int:
                # NULL (no change) where the key has no sequence.
                connection.execute(text(
                    f"SELECT setval(pg_get_serial_sequence('{table.name}', '{keys[0].name}'), "
                    f"coalesce(max({keys[0].name}), 1), max({keys[0].name}) IS NOT NULL) "
                    f"FROM {table.name}"))
    return counts


async def _load_into(url: str, lines: Iterator[bytes]) -> dict[str, int]:
    engine = make_engine(url, poolclass=pool.NullPool)
    try:
        async with engine.begin() as connection:
            return await connection.run_sync(_load, lines)
    finally:
        await engine.dispose()


def restore(url: str, path: Path) -> dict[str, int]:
    """Load the backup at `path` into the empty database at `url`: its schema migrated to
    the backup's migration, the rows, then the migrations since; the rows per table."""
    with _open(path, "r", path.suffix == ".gz") as source:
        lines = iter(source)
        try:
            header = orjson.loads(next(lines))
        except (StopIteration, orjson.JSONDecodeError):
            header = None
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise BackupError(f"{path} is not a Coffee Rush backup")
        if header.get("version") != VERSION:
            raise BackupError(f"{path} is a backup of format {header.get('version')}; "
                              f"this server reads {VERSION}")
        try:
            upgrade(url, header["revision"])
        except CommandError as exc:  # e.g. a database already past the backup's migration
            raise BackupError(f"the database cannot take a backup made at migration "
                              f"{header['revision']}: {exc}") from None
        counts = asyncio.run(_load_into(url, lines))
    upgrade(url)
    return counts

"""The local fallback file: where accepted operations go while the database is unreachable.

One JSON line per operation, appended and fsync'ed before the operation is acknowledged,
copied into the database in order once it is back (idempotently: a line already copied is
skipped by the unique keys), then truncated. Only one task (the journal's writer) may touch
the file, so nothing can be appended between a replay's read and its truncate.
One process per file: two servers must not share a fallback path.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

from sqlalchemy.exc import DataError, IntegrityError, ProgrammingError

from .ops import Op, decode
from .records import JournalConflict, UnknownRoom

log = logging.getLogger(__name__)

# Errors that are the operation's own fault: retrying it later would fail the same way.
# Anything else (connection refused or reset, timeouts, a locked SQLite file, ...) is
# taken to mean "the database is unavailable" and the operation goes to the file.
OP_ERRORS = (
    JournalConflict, UnknownRoom, IntegrityError, DataError, ProgrammingError,
    ValueError, KeyError, TypeError,
)


def is_unavailable(exc: BaseException) -> bool:
    return isinstance(exc, Exception) and not isinstance(exc, OP_ERRORS)


class FallbackFile:
    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.rejected_path = self.path.with_name(self.path.name + ".rejected")

    def pending(self) -> bool:
        try:
            return self.path.stat().st_size > 0
        except FileNotFoundError:
            return False

    def append(self, lines: Sequence[str]) -> None:
        """Append lines durably: when this returns they survive a crash or power loss."""
        _append_durably(self.path, lines)

    def read(self) -> list[str]:
        """The complete lines. A torn last line (a crash mid-append, so never acknowledged)
        is cut off the file, so later appends start on a fresh line."""
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return []
        end = data.rfind(b"\n") + 1
        if end < len(data):
            log.warning("fallback file %s: dropping a torn last line (%d bytes, never "
                        "acknowledged)", self.path, len(data) - end)
            with open(self.path, "r+b") as f:
                f.truncate(end)
                os.fsync(f.fileno())
        return [line for line in data[:end].decode().split("\n") if line]

    def clear(self) -> None:
        """Empty the file once every line is in the database. A crash before this point
        only means the lines are replayed again, which changes nothing."""
        if not self.path.exists():
            return
        with open(self.path, "r+b") as f:
            f.truncate(0)
            os.fsync(f.fileno())

    def reject(self, line: str, error: BaseException) -> None:
        """Set aside a line the database refuses for good, with the reason, for a human."""
        log.error("fallback file %s: operation refused for good, moved to %s: %r",
                  self.path, self.rejected_path, error)
        _append_durably(
            self.rejected_path, [json.dumps({"error": repr(error), "line": line})]
        )


def _append_durably(path: Path, lines: Sequence[str]) -> None:
    new = not path.exists()
    if new:
        path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "ab") as f:
        f.write("".join(line + "\n" for line in lines).encode())
        f.flush()
        os.fsync(f.fileno())
    if new:  # the directory entry of a new file must be durable too
        fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


Write = Callable[[Sequence[Op]], Awaitable[None]]


async def replay(file: FallbackFile, write: Write, *, chunk: int = 500) -> int:
    """Copy the file into the database in order, in transactions of `chunk` operations, then
    empty it; returns how many operations were copied. If the database fails, the error is
    raised and the file is left whole (a later replay repeats the copied part harmlessly).
    Operations the database refuses for good are set aside in the `.rejected` file."""
    lines = await asyncio.to_thread(file.read)
    ops: list[tuple[str, Op]] = []
    for line in lines:
        try:
            ops.append((line, decode(line)))
        except ValueError as exc:
            await asyncio.to_thread(file.reject, line, exc)
    for start in range(0, len(ops), chunk):
        part = ops[start:start + chunk]
        try:
            await write([op for _, op in part])
        except Exception as exc:
            if is_unavailable(exc):
                raise
            for line, op in part:  # find the refused operation(s); keep the rest
                try:
                    await write([op])
                except Exception as one:
                    if is_unavailable(one):
                        raise
                    await asyncio.to_thread(file.reject, line, one)
    await asyncio.to_thread(file.clear)
    return len(ops)

"""The local fallback file: where accepted operations go while the database is unreachable.

One JSON line per operation, appended and fsync'ed before the operation is acknowledged,
copied into the database in order once it is back (idempotently: a line already copied is
skipped by the unique keys), then truncated. Only the journal appends and clears the file;
its background copy-back reads only the bytes already acknowledged.
One process per file: two servers must not share a fallback path.

An append is all-or-nothing: one that fails (a full disk) is cut off again before the
error is raised, and an append never starts after a torn line (a crash mid-append), so an
acknowledged line is never glued onto a line that was not.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import threading
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

from .errors import is_unavailable
from .ops import Op, decode

log = logging.getLogger(__name__)

__all__ = ["Attempt", "FallbackFile", "copy_lines", "is_unavailable", "replay"]


class FallbackFile:
    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.rejected_path = self.path.with_name(self.path.name + ".rejected")
        # Bytes known to hold only complete, acknowledged lines (None: not looked yet).
        self._end: int | None = None

    def pending(self) -> bool:
        try:
            return self.path.stat().st_size > 0
        except FileNotFoundError:
            return False

    @property
    def end(self) -> int:
        """How many bytes of the file are acknowledged lines."""
        if self._end is None:
            try:
                self._end = self.path.stat().st_size
            except FileNotFoundError:
                self._end = 0
        return self._end

    def append(self, lines: Sequence[str], attempt: Attempt | None = None) -> None:
        """Append lines durably: when this returns they survive a crash or power loss.
        If it raises, the file is as it was before; so it is when `attempt` was abandoned
        before the lines were durable (they are cut off again once the disk answers)."""
        self._end = _append_durably(self.path, lines, attempt)

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
        self._end = end
        return _lines(data[:end])

    def read_range(self, start: int, end: int) -> list[str]:
        """The lines between two acknowledged offsets (no torn line can lie between them)."""
        if end <= start:
            return []
        with open(self.path, "rb") as f:
            f.seek(start)
            return _lines(f.read(end - start))

    def clear(self) -> None:
        """Empty the file once every line is in the database. A crash before this point
        only means the lines are replayed again, which changes nothing."""
        self._end = 0
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


class Attempt:
    """One append, run in a thread, that its caller may stop waiting for (a hung disk).
    Whichever comes first wins: the append finishing (kept) or the caller abandoning it
    (then the append cuts its lines off again when the disk answers, and raises)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._state = "running"

    def keep(self) -> bool:
        with self._lock:
            if self._state == "abandoned":
                return False
            self._state = "kept"
            return True

    def abandon(self) -> bool:
        """True if abandoned; False if the append was already kept (it is durable)."""
        with self._lock:
            if self._state == "kept":
                return False
            self._state = "abandoned"
            return True


def _lines(data: bytes) -> list[str]:
    return [line for line in data.decode().split("\n") if line]


def _append_durably(path: Path, lines: Sequence[str], attempt: Attempt | None = None) -> int:
    """Append, fsync, and return the new size; on any failure, or when `attempt` was
    abandoned meanwhile, cut the file back first."""
    data = "".join(line + "\n" for line in lines).encode()
    new = not path.exists()
    if new:
        path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        start = _good_end(fd)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
            if new:  # the directory entry of a new file must be durable too
                _fsync_dir(path.parent)
            if attempt is not None and not attempt.keep():
                raise TimeoutError("append abandoned: the disk answered too late")
        except BaseException:
            with contextlib.suppress(OSError):  # shrinking needs no space
                os.ftruncate(fd, start)
                os.fsync(fd)
            raise
        end = start + len(data)
    finally:
        os.close(fd)
    return end


def _fsync_dir(folder: Path) -> None:
    dir_fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def _good_end(fd: int) -> int:
    """The file's size, after cutting off a torn last line if there is one (left by a
    crash mid-append, or by a failed append that could not be cut back)."""
    size = os.fstat(fd).st_size
    if size == 0 or os.pread(fd, 1, size - 1) == b"\n":
        return size
    end, block = size, 4096
    while end > 0:
        start = max(0, end - block)
        found = os.pread(fd, end - start, start).rfind(b"\n")
        if found >= 0:
            end = start + found + 1
            break
        end = start
    log.warning("fallback file: cutting off a torn last line (%d bytes, never acknowledged)",
                size - end)
    os.ftruncate(fd, end)
    os.fsync(fd)
    return end


Write = Callable[[Sequence[Op]], Awaitable[None]]


async def copy_lines(
    file: FallbackFile, lines: Sequence[str], write: Write, *, chunk: int = 500
) -> int:
    """Copy lines into the database in order, in transactions of `chunk` operations;
    returns how many were copied. If the database is unavailable the error is raised (a
    later copy repeats the copied part harmlessly). Lines the database refuses for good,
    or that do not decode, are set aside in the `.rejected` file."""
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
    return len(ops)


async def replay(file: FallbackFile, write: Write, *, chunk: int = 500) -> int:
    """Copy the whole file into the database, then empty it; returns how many operations
    were copied. If the database fails, the error is raised and the file is left whole."""
    lines = await asyncio.to_thread(file.read)
    copied = await copy_lines(file, lines, write, chunk=chunk)
    await asyncio.to_thread(file.clear)
    return copied

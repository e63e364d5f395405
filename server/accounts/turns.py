"""Turns in memory for the accounts' database work, so that a burst of requests waits
here, in order, rather than on the database's locks or for a connection from the pool
(where a wait runs out after DB_TIMEOUT and the answer used to be a 500, or a 429 for an
attempt that had failed nothing).

- `Gate`: at most PERMITS of these transactions at once (fewer than the pool's kept
  connections, so the journal and the pages always find one).
- `KeyedLocks`: one holder per key at a time (a password attempt per account and address),
  the others queued behind it; a key that nobody holds or waits for is forgotten.
- `Turns.hashing`: password hashes one after another per HASH_LANES cores. Each Argon2
  hash runs on HASH_LANES threads of its own; a burst of them at once (6 in the default
  thread pool, 24 threads on a 2-core machine) left the event loop so little of the CPU
  that every transaction took seconds and the database's turns ran out. A hash always
  ends, so its turn has no deadline: the queue drains at the machine's hashing speed.

Only the waits for a turn have a deadline. A transaction, once it has its turn, is never
cancelled: it runs in a task of its own, bounded by the database's own timeouts (pool,
busy, statement and lock: DB_TIMEOUT each). A request that stops waiting for it (`Late`)
leaves it to finish and give its connection back to the pool as usual; cancelling it
mid-way left the pool resetting a connection whose driver call was cancelled too, logged as
an ERROR with a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

T = TypeVar("T")
PERMITS = 4  # the pool keeps 5 connections (server.db.session.make_engine)
HASH_LANES = 4  # the parallelism of pwdlib's Argon2 hasher (server.accounts.passwords)
HASHES = max(1, (os.cpu_count() or 1) // HASH_LANES)


class Late(Exception):
    """The turn (or the transaction that had it) did not come before the deadline."""


class Gate:
    def __init__(self, permits: int = PERMITS) -> None:
        self._free = asyncio.Semaphore(permits)
        self._running: set[asyncio.Task[Any]] = set()

    async def run(self, work: Callable[[], Awaitable[T]], until: float | None) -> T:
        """`work()` once a permit is free, its result (or its exception); Late if the
        permit, or the end of the work, does not come by `until` (the loop's clock; None:
        no deadline)."""
        try:
            async with asyncio.timeout_at(until):
                await self._free.acquire()
        except TimeoutError:
            raise Late from None
        task = asyncio.create_task(self._holding(work))
        self._running.add(task)
        task.add_done_callback(self._finished)
        try:
            async with asyncio.timeout_at(until):
                return await asyncio.shield(task)
        except TimeoutError:
            raise Late from None

    async def _holding(self, work: Callable[[], Awaitable[T]]) -> T:
        try:
            return await work()
        finally:
            self._free.release()

    def _finished(self, task: asyncio.Task[Any]) -> None:
        self._running.discard(task)
        if not task.cancelled():
            task.exception()  # retrieved: whoever waited for it has it, or gave up


class KeyedLocks:
    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}

    @contextlib.asynccontextmanager
    async def hold(self, key: str, until: float) -> AsyncIterator[None]:
        """`key`'s turn for the block (Late if it does not come by `until`)."""
        lock, users = self._locks.get(key, (None, 0))
        if lock is None:
            lock = asyncio.Lock()
        self._locks[key] = (lock, users + 1)
        try:
            try:
                async with asyncio.timeout_at(until):
                    await lock.acquire()
            except TimeoutError:
                raise Late from None
            try:
                yield
            finally:
                lock.release()
        finally:
            lock, users = self._locks[key]
            if users == 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)

    def __len__(self) -> int:
        return len(self._locks)


class Turns:
    """An app's turns: the gate of every account transaction, one turn per key, and the
    password hashes'."""

    def __init__(self, permits: int = PERMITS, hashes: int = HASHES) -> None:
        self.gate = Gate(permits)
        self.keys = KeyedLocks()
        self.hashing = Gate(hashes)

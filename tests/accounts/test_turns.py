"""Turns in memory (server/accounts/turns.py): a wait for a turn has a deadline, the work
that has its turn is never cancelled by a request that stops waiting for it, and a key
nobody holds is forgotten."""

from __future__ import annotations

import asyncio

import pytest

from server.accounts.turns import Gate, KeyedLocks, Late

pytestmark = pytest.mark.asyncio


def soon(seconds: float) -> float:
    return asyncio.get_running_loop().time() + seconds


async def test_a_request_that_stops_waiting_leaves_its_work_to_finish() -> None:
    gate = Gate(1)
    release = asyncio.Event()
    finished: list[str] = []

    async def work() -> str:
        await release.wait()
        finished.append("done")
        return "done"

    with pytest.raises(Late):
        await gate.run(work, soon(0.05))
    with pytest.raises(Late):  # the permit is still the first work's
        await gate.run(work, soon(0.05))
    release.set()
    assert await gate.run(work, soon(30)) == "done"
    assert finished == ["done", "done"]  # the one given up on ran to its end too


async def test_the_works_exception_reaches_the_request() -> None:
    async def broken() -> None:
        raise ValueError("refused")

    with pytest.raises(ValueError, match="refused"):
        await Gate(1).run(broken, None)


async def test_one_holder_per_key_and_a_free_key_is_forgotten() -> None:
    keys = KeyedLocks()
    async with keys.hold("a", soon(30)):
        with pytest.raises(Late):
            async with keys.hold("a", soon(0.05)):
                pass
        async with keys.hold("b", soon(0.05)):  # another key is not held up
            assert len(keys) == 2
    assert len(keys) == 0

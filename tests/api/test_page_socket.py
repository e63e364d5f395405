"""The writer of a socket sent whole states (server/api/page_socket.py: the lobby's and a
tournament page's), against a WebSocket whose sends wait until it is let go: a client that
stops reading is, to the app, a send that does not return (uvicorn's send waits while the
transport's buffer is full). The routes' own tests drive it through the app:
tests/api/test_lobby_stuck.py, tests/tournaments/test_page_socket.py."""

from __future__ import annotations

import asyncio

import pytest

from server.api.page_socket import OUTBOX, PageSocket


class Held:
    """A WebSocket whose every send waits until `go` is set (never, for a stuck client)."""

    client = None

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.go = asyncio.Event()
        self.closed: tuple[int, str] | None = None

    async def send_text(self, text: str) -> None:
        self.sent.append(text)
        await self.go.wait()

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


async def writing(first: str, timeout: float = 10) -> tuple[Held, PageSocket, asyncio.Task]:
    """A page socket whose writer has taken `first` and waits on the socket with it."""
    ws = Held()
    page = PageSocket(ws, timeout)  # type: ignore[arg-type]
    writer = asyncio.create_task(page.write())
    page.send(first)
    await asyncio.sleep(0)
    assert ws.sent == [first]
    return ws, page, writer


@pytest.mark.asyncio
async def test_a_page_socket_holds_the_newest_state_only() -> None:
    ws, page, writer = await writing("hello", timeout=0.1)
    for n in range(1000):
        page.offer(f"state {n}")  # never waits
    assert ws.sent == ["hello"] and page.pending == "state 999"
    with pytest.raises(TimeoutError):  # the client never read: dropped after the timeout
        await writer


@pytest.mark.asyncio
async def test_answers_go_out_in_order_before_the_newest_state() -> None:
    ws, page, writer = await writing("answer 0")
    for n in range(1, 5):
        page.offer(f"list {n}")
        page.send(f"answer {n}")
    page.end("bye", 1008, "closed")
    ws.go.set()
    await writer
    assert ws.sent == ["answer 0", "answer 1", "answer 2", "answer 3", "answer 4", "list 4",
                       "bye"]
    assert ws.closed == (1008, "closed")


@pytest.mark.asyncio
async def test_a_socket_too_far_behind_on_answers_is_closed() -> None:
    ws, page, writer = await writing("answer 0")
    for n in range(1, OUTBOX + 2):
        page.send(f"answer {n}")
    ws.go.set()
    await writer
    assert ws.sent == [f"answer {n}" for n in range(OUTBOX + 1)]
    assert ws.closed == (1008, "lagging")

"""An answer's head goes out with its body in one write (server/ws/headwrite.py): an
instance that freezes between the two left the proxy a head it had to forward and could not
retry (issue 41.16). What is written stays what uvicorn writes, byte for byte."""

from __future__ import annotations

import asyncio

import pytest
from uvicorn.config import Config
from uvicorn.server import ServerState

from server.ws.protocol import UpgradingHttpProtocol
from tests.ws.sockets import Transport

pytestmark = pytest.mark.asyncio

GET = b"GET /x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


class Writes(Transport):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[bytes] = []

    def write(self, data) -> None:
        super().write(data)
        self.parts.append(bytes(data))


async def answered(app, request: bytes = GET) -> Writes:
    """What one request to `app` writes, once its answer is done (or broken off)."""
    config = Config(app, log_level="critical", lifespan="off")
    config.load()
    protocol = UpgradingHttpProtocol(config, ServerState(), {})
    transport = Writes()
    protocol.connection_made(transport)
    protocol.data_received(request)
    for _ in range(100):
        await asyncio.sleep(0)
        if protocol.cycle is not None and (protocol.cycle.response_complete
                                           or transport.closing):
            break
    protocol.connection_lost(None)
    return transport


def start(status: int = 200, length: int | None = None) -> dict:
    headers = [(b"content-type", b"text/plain")]
    if length is not None:
        headers.append((b"content-length", str(length).encode()))
    return {"type": "http.response.start", "status": status, "headers": headers}


def body(data: bytes, more: bool = False) -> dict:
    return {"type": "http.response.body", "body": data, "more_body": more}


async def test_an_answer_in_one_body_message_is_one_write() -> None:
    async def app(scope, receive, send):
        await send(start(length=5))
        await send(body(b"hello"))

    t = await answered(app)
    assert len(t.parts) == 1
    assert t.parts[0].startswith(b"HTTP/1.1 200 OK\r\n") and t.parts[0].endswith(
        b"content-length: 5\r\n\r\nhello")


async def test_a_streamed_answer_sends_its_head_with_the_first_part() -> None:
    async def app(scope, receive, send):
        await send(start())
        await send(body(b"one", more=True))
        await send(body(b"two"))

    t = await answered(app)
    assert len(t.parts) == 2
    assert t.parts[0].endswith(b"transfer-encoding: chunked\r\n\r\n3\r\none\r\n")
    assert t.parts[1] == b"3\r\ntwo\r\n0\r\n\r\n"


async def test_a_head_requests_answer_is_its_head_alone() -> None:
    async def app(scope, receive, send):
        await send(start(length=5))
        await send(body(b""))

    t = await answered(app, GET.replace(b"GET", b"HEAD"))
    assert len(t.parts) == 1 and t.parts[0].endswith(b"content-length: 5\r\n\r\n")


async def test_100_continue_goes_out_at_once_ahead_of_the_answer() -> None:
    async def app(scope, receive, send):
        assert (await receive())["body"] == b"hi"
        await send(start(length=2))
        await send(body(b"ok"))

    request = (b"POST /x HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\n"
               b"Content-Length: 2\r\n\r\nhi")
    t = await answered(app, request)
    assert t.parts[0] == b"HTTP/1.1 100 Continue\r\n\r\n"
    assert len(t.parts) == 2 and t.parts[1].endswith(b"\r\n\r\nok")


async def test_an_answer_broken_before_its_body_writes_nothing_and_closes() -> None:
    """To the proxy, no answer: a read it may retry on another instance."""
    async def app(scope, receive, send):
        await send(start(length=5))
        raise RuntimeError("broken")

    t = await answered(app)
    assert t.parts == [] and t.closing

"""A TCP proxy a test can shut and reopen (a database that goes away and comes back), or
freeze and thaw (a network partition: connections stay open, nothing gets through)."""

from __future__ import annotations

import asyncio
import contextlib


class TcpProxy:
    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.port = 0
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._flowing = asyncio.Event()
        self._flowing.set()

    def freeze(self) -> None:
        """Stop forwarding in both directions; connections and new ones hang, unanswered."""
        self._flowing.clear()

    def thaw(self) -> None:
        self._flowing.set()

    async def open(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", self.port)
        self.port = self._server.sockets[0].getsockname()[1]

    async def shut(self) -> None:
        """Refuse new connections and break every open one, like a database going down."""
        assert self._server is not None
        self._server.close()
        await self._server.wait_closed()
        self._server = None
        for _ in range(2):  # again after a turn: a connection accepted just before the close
            for writer in list(self._writers):
                writer.transport.abort()
            await asyncio.sleep(0)
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        # Tracked from the moment it is accepted: a connection still waiting (frozen, or
        # connecting upstream) when the proxy shuts is broken too, not left to the garbage
        # collector (an unclosed transport warns in whichever test runs next).
        self._writers.add(writer)
        try:
            await self._flowing.wait()
            try:
                up_reader, up_writer = await asyncio.open_connection(*self.target)
            except OSError:
                writer.transport.abort()
                return
            self._writers.add(up_writer)
            pipes = [asyncio.create_task(self._pipe(reader, up_writer)),
                     asyncio.create_task(self._pipe(up_reader, writer))]
            self._tasks.update(pipes)
            await asyncio.gather(*pipes, return_exceptions=True)
            self._tasks.difference_update(pipes)
            self._writers.discard(up_writer)
        finally:
            self._writers.discard(writer)

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                await self._flowing.wait()
                writer.write(data)
                await writer.drain()
        finally:
            with contextlib.suppress(Exception):
                writer.close()

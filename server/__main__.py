"""`python -m server`: serve the app with uvicorn on HOST:PORT from the settings.

A database the server must not use (unreachable, another application's, of unknown
version) is a one-line message on stderr and exit status 3, not a traceback.
"""

from __future__ import annotations

import contextlib
import socket
import sys
from typing import Any

import uvicorn
from fastapi import FastAPI

from server.cluster.settings import ClusterConfigError
from server.config import Settings
from server.db.migrate import DatabaseRefused
from server.logs import log_config
from server.main import create_app
from server.memory import limit_malloc_arenas, tune_collector
from server.ws.httplimits import HttpLimits
from server.ws.protocol import AnsweringWebSocketProtocol, UpgradingHttpProtocol

STARTUP_FAILURE = 3  # uvicorn's own exit status when an app fails to start


class Server(uvicorn.Server):
    """Runs the app's lifespan itself (uvicorn's is off), so that a refusal to start is
    reported as such; stops the bots, then says bye ("restarting") to every socket before
    uvicorn drops the connections."""

    def __init__(self, config: uvicorn.Config, app: FastAPI) -> None:
        super().__init__(config)
        self.app = app
        self.refused: DatabaseRefused | ClusterConfigError | None = None
        self._lifespan: contextlib.AbstractAsyncContextManager[Any] | None = None

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        lifespan = self.app.router.lifespan_context(self.app)
        try:
            await lifespan.__aenter__()
        except (DatabaseRefused, ClusterConfigError) as exc:  # ClusterConfigError: a twin id
            self.refused, self.should_exit = exc, True
            return
        self._lifespan = lifespan
        try:
            await super().startup(sockets)  # binds the port (or exits)
        except BaseException:
            await self._end_lifespan()
            raise

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        # Stop listening first: sockets told to reconnect (or whose rooms are handed to
        # another instance) must not come back here.
        for server in self.servers:
            server.close()
        # Bots next: a move made after the bye would reach nobody (a game could end unseen).
        if self.app.state.bots is not None:
            await self.app.state.bots.stop()
        await self.app.state.rooms.goodbye("restarting")
        try:
            await super().shutdown(sockets)
        finally:
            await self._end_lifespan()

    async def _end_lifespan(self) -> None:
        lifespan, self._lifespan = self._lifespan, None
        if lifespan is not None:
            await lifespan.__aexit__(None, None, None)


def main(own_protocols: bool = True) -> None:
    """Serve; `own_protocols=False` runs uvicorn's stock protocols instead of
    server/ws/protocol.py's (bench/public_server.py, to measure what they save)."""
    limit_malloc_arenas()  # before any thread starts
    settings = Settings()
    try:
        app = create_app(settings)
    except ClusterConfigError as exc:
        sys.exit(f"coffee-rush: cannot start: {exc}")
    # Every action leaves a whole view behind as garbage; with the default thresholds the
    # collector's full passes stall the event loop for hundreds of ms under load (p99).
    tune_collector()
    config = uvicorn.Config(
        app,
        host=settings.HOST,
        port=settings.PORT,
        log_level=settings.LOG_LEVEL.lower(),
        log_config=log_config(settings),
        lifespan="off",  # Server runs it
        # Frames past the cap are refused unread, with the error and bye frames first.
        ws_max_size=settings.WS_MAX_FRAME,
        # Heads within HTTP_HEAD_TIMEOUT, HTTP_PER_ADDRESS connections per client address.
        http=(UpgradingHttpProtocol.with_limits(HttpLimits.from_settings(settings))
              if own_protocols else "httptools"),
        ws=AnsweringWebSocketProtocol if own_protocols else "websockets-sansio",
        ws_per_message_deflate=settings.WS_DEFLATE,
        # X-Forwarded-For only from the proxies named in FORWARDED_ALLOW_IPS.
        proxy_headers=bool(settings.FORWARDED_ALLOW_IPS),
        forwarded_allow_ips=settings.FORWARDED_ALLOW_IPS or [],
        timeout_graceful_shutdown=5,
    )
    server = Server(config, app)
    server.run()
    if server.refused is not None:
        print(f"coffee-rush: cannot start: {server.refused}", file=sys.stderr)
        sys.exit(STARTUP_FAILURE)


if __name__ == "__main__":
    main()

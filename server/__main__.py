"""`python -m server`: serve the app with uvicorn on HOST:PORT from the settings.

A database the server must not use (unreachable, another application's, of unknown
version) is a one-line message on stderr and exit status 3, not a traceback.
"""

from __future__ import annotations

import contextlib
import gc
import socket
import sys
from typing import Any

import uvicorn
from fastapi import FastAPI

from server.config import Settings
from server.db.migrate import DatabaseRefused
from server.main import create_app

STARTUP_FAILURE = 3  # uvicorn's own exit status when an app fails to start


class Server(uvicorn.Server):
    """Runs the app's lifespan itself (uvicorn's is off), so that a refusal to start is
    reported as such; stops the bots, then says bye ("restarting") to every socket before
    uvicorn drops the connections."""

    def __init__(self, config: uvicorn.Config, app: FastAPI) -> None:
        super().__init__(config)
        self.app = app
        self.refused: DatabaseRefused | None = None
        self._lifespan: contextlib.AbstractAsyncContextManager[Any] | None = None

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        lifespan = self.app.router.lifespan_context(self.app)
        try:
            await lifespan.__aenter__()
        except DatabaseRefused as exc:
            self.refused, self.should_exit = exc, True
            return
        self._lifespan = lifespan
        try:
            await super().startup(sockets)  # binds the port (or exits)
        except BaseException:
            await self._end_lifespan()
            raise

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        # Bots first: a move made after the bye would reach nobody (a game could end unseen).
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


def main() -> None:
    settings = Settings()
    app = create_app(settings)
    # Every action leaves a whole view behind as garbage; with the default thresholds the
    # collector's full passes stall the event loop for hundreds of ms under load (p99).
    # Objects alive now never need scanning again, and young passes can run less often.
    gc.freeze()
    gc.set_threshold(100_000, 50, 100)
    config = uvicorn.Config(
        app,
        host=settings.HOST,
        port=settings.PORT,
        log_level=settings.LOG_LEVEL.lower(),
        lifespan="off",  # Server runs it
        # Frames past this never reach the app (uvicorn closes with 1009); smaller ones
        # over WS_MAX_FRAME get an error frame first.
        ws_max_size=4 * settings.WS_MAX_FRAME,
        timeout_graceful_shutdown=5,
    )
    server = Server(config, app)
    server.run()
    if server.refused is not None:
        print(f"coffee-rush: cannot start: {server.refused}", file=sys.stderr)
        sys.exit(STARTUP_FAILURE)


if __name__ == "__main__":
    main()

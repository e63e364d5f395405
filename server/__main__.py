"""`python -m server`: serve the app with uvicorn on HOST:PORT from the settings."""

from __future__ import annotations

import gc
import sys

import uvicorn

from server.cluster.settings import ClusterConfigError
from server.config import Settings
from server.logs import log_config
from server.main import create_app
from server.rooms import RoomManager
from server.ws.protocol import AnsweringWebSocketProtocol


class Server(uvicorn.Server):
    """Says bye ("restarting") to every socket before uvicorn drops the connections."""

    def __init__(self, config: uvicorn.Config, rooms: RoomManager) -> None:
        super().__init__(config)
        self.rooms = rooms

    async def shutdown(self, sockets: list | None = None) -> None:
        # Stop listening first: sockets told to reconnect (or whose rooms are handed to
        # another instance) must not come back here.
        for server in self.servers:
            server.close()
        await self.rooms.goodbye("restarting")
        await super().shutdown(sockets)


def main() -> None:
    settings = Settings()
    try:
        app = create_app(settings)
    except ClusterConfigError as exc:
        sys.exit(f"coffee-rush: {exc}")
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
        log_config=log_config(settings),
        # Frames past the cap are refused unread, with the error and bye frames first.
        ws_max_size=settings.WS_MAX_FRAME,
        ws=AnsweringWebSocketProtocol,
        # X-Forwarded-For only from the proxies named in FORWARDED_ALLOW_IPS.
        proxy_headers=bool(settings.FORWARDED_ALLOW_IPS),
        forwarded_allow_ips=settings.FORWARDED_ALLOW_IPS or [],
        timeout_graceful_shutdown=5,
    )
    Server(config, app.state.rooms).run()


if __name__ == "__main__":
    main()

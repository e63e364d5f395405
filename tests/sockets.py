"""Websockets to a served server (tests/serving.py) from a client address of the test's
choosing (any 127.x.y.z is this host, and each is its own client address to the server),
and what such a socket heard until the server closed it."""

from __future__ import annotations

import contextlib
import json
import socket
from typing import Any
from urllib.parse import urlsplit

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect


def socket_from(sockets: contextlib.ExitStack, url: str, path: str, source: str,
                **options: Any) -> ClientConnection:
    """A websocket to `path` of the server at `url`, its connection made from `source`;
    closed with `sockets`. `options` go to websockets' connect."""
    parts = urlsplit(url)
    sock = socket.create_connection((parts.hostname, parts.port), timeout=10,
                                    source_address=(source, 0))
    return sockets.enter_context(
        connect(f"ws://{parts.netloc}{path}", sock=sock, open_timeout=10, **options))


def closed_with(ws: ClientConnection) -> tuple[list[dict], int | None, str | None]:
    """The frames until the server closes, and its close code and reason."""
    frames = []
    try:
        while True:
            frames.append(json.loads(ws.recv(timeout=10)))
    except ConnectionClosed:
        pass
    close = ws.protocol.close_rcvd
    return frames, None if close is None else close.code, None if close is None else close.reason

"""The table socket's way in finds `/ws/{code}` as the router would: under a mount point
(`root_path`, which ASGI puts in `path` too) the path is taken without it."""

from __future__ import annotations

import pytest

from server.ws.route import _table_code, route_path


@pytest.mark.parametrize(("path", "root", "seen"), [
    ("/ws/ABCD", "", "/ws/ABCD"),
    ("/coffee/ws/ABCD", "/coffee", "/ws/ABCD"),
    ("/coffee", "/coffee", ""),
    ("/coffeeshop/ws/ABCD", "/coffee", "/coffeeshop/ws/ABCD"),  # not under the mount point
    ("/ws/ABCD", "/coffee", "/ws/ABCD"),  # a server that strips the mount point itself
])
def test_the_path_under_the_mount_point(path: str, root: str, seen: str) -> None:
    assert route_path({"type": "websocket", "path": path, "root_path": root}) == seen


def test_only_a_table_path_is_a_table_socket() -> None:
    assert _table_code({"type": "websocket", "path": "/coffee/ws/AB12", "root_path": "/coffee"}) \
        == "AB12"
    assert _table_code({"type": "websocket", "path": "/ws/AB12/more"}) is None

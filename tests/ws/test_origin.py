"""The Origin check: same-origin pages, listed origins and Origin-less clients only."""

from __future__ import annotations

import pytest
from starlette.websockets import WebSocketDisconnect


@pytest.fixture
def settings(make_settings):
    return make_settings(ALLOWED_ORIGINS="https://coffee.example, https://other.example/")


@pytest.mark.parametrize(
    "headers",
    [{}, {"origin": "http://testserver"}, {"origin": "https://coffee.example"},
     {"origin": "https://other.example"}],
)
def test_allowed(table, connect, headers):
    viewer = connect(table().code, headers=headers)
    viewer.hello()
    assert viewer.recv()["type"] == "snapshot"


@pytest.mark.parametrize("origin", ["https://evil.example", "null", "http://testserver.evil"])
def test_refused_before_the_handshake(table, connect, origin):
    with pytest.raises(WebSocketDisconnect) as refused:
        connect(table().code, headers={"origin": origin})
    assert refused.value.code == 1008

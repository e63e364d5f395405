"""LOG_FORMAT=json: every line a JSON object, room lines name their room, no token ever."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosedError
from websockets.sync.client import connect

from tests.serving import served_process


def test_json_log_lines_name_the_room_and_never_a_token(tmp_path: Path):
    log = tmp_path / "server.log"
    with log.open("wb") as stderr, served_process(
        tmp_path / "db.sqlite", stderr=stderr, LOG_FORMAT="json", LOG_LEVEL="info",
    ) as (url, _), httpx.Client(base_url=url) as api:
        room = api.post("/api/rooms", json={"players": 2}).json()
        tokens = [room["host_token"]]
        for name in ("Ana", "Bo"):
            tokens.append(api.post(f"/api/rooms/{room['code']}/join",
                                   json={"name": name}).json()["seat_token"])
        with connect(f"ws{url[4:]}/ws/{room['code']}") as ws:
            ws.send(json.dumps({"type": "hello", "token": tokens[1]}))
            ws.recv(timeout=5)
        api.post(f"/api/rooms/{room['code']}/start", json={"token": tokens[0]})
    text = log.read_text()
    lines = [json.loads(line) for line in text.splitlines()]  # every line is JSON
    assert all({"ts", "level", "logger", "message"} <= set(line) for line in lines)
    created = [line for line in lines if line["message"].endswith("created")]
    assert created and created[0]["room"] == room["code"]
    assert all(line["room"] == room["code"] for line in lines if "room" in line)
    assert any(line["logger"] == "uvicorn.access" for line in lines)
    assert not any(token in text for token in tokens)


def test_text_that_is_not_utf8_is_one_info_line_not_a_server_error(tmp_path: Path):
    """A client's bad frame costs one short line, never a traceback (server.logs)."""
    not_utf8 = b"\x81\x82abcd" + bytes(a ^ b for a, b in zip(b"\xff\xfe", b"ab", strict=True))
    log = tmp_path / "server.log"
    with log.open("wb") as stderr, served_process(
        tmp_path / "db.sqlite", stderr=stderr, LOG_LEVEL="info",
    ) as (url, _), httpx.Client(base_url=url) as api:
        code = api.post("/api/rooms", json={"players": 2}).json()["code"]
        for _ in range(3):
            with connect(f"ws{url[4:]}/ws/{code}") as ws:
                ws.socket.sendall(not_utf8)
                with pytest.raises(ConnectionClosedError) as closed:
                    ws.recv(timeout=5)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007
    text = log.read_text()
    lines = [line for line in text.splitlines() if "UTF-8" in line]
    assert len(lines) == 3 and all(line.startswith("INFO") for line in lines), lines
    assert "Traceback" not in text and "ERROR" not in text

"""One client must not hold the bots (issue 41.1), on a real server: hints in flight are
capped per client address (HINTS_PER_ADDRESS) and server-wide (HINTS_IN_FLIGHT), refused
`hint_busy` past either, and a hint's deadline counts from its request, so one that waited
out BOT_DEADLINE for the worker is refused `hint_busy` rather than thought late.

The bot worker is frozen (SIGSTOP) while the requests arrive, so what is queued and what
is refused does not depend on the machine's load. That a bot's move goes before the hints
waiting for its worker is tests/bots/test_pool.py's; the pace a bot table keeps under the
whole 16-room attack is measured by bench/hint_flood.py (figures, not assertions)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.persist.live import Player, Server
from tests.serving import children

IN_FLIGHT, PER_ADDRESS = 4, 2


def _server(tmp: Path, **env: str) -> Server:
    (tmp / "data").mkdir()
    return Server({
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp}/data/coffee-rush.db",
        "JOURNAL_FALLBACK_PATH": str(tmp / "data" / "journal-fallback.jsonl"),
        "BOT_WORKERS": "1", "BOT_BUDGET": "0.05", "BOT_DELAY": "0",
        "ROOM_CREATE_RATE": "1000", "HINTS_IN_FLIGHT": str(IN_FLIGHT),
        "HINTS_PER_ADDRESS": str(PER_ADDRESS), **env,
    }, log=tmp / "server.log")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose deadline outlasts any freeze here (the late hint has its own)."""
    running = _server(tmp_path_factory.mktemp("hint-flood"), BOT_DEADLINE="120")
    running.start()
    try:
        _warm(running)
        yield running
    finally:
        running.stop()


def _warm(server: Server) -> None:
    """One hint answered: the bot worker is spawned on first use, and must exist to be
    frozen."""
    player = _hinted(server)
    assert _ask(player, "warm")["type"] == "hint"
    player.close()


def _hinted(server: Server, source: str | None = None) -> Player:
    """A started 2-player room with hints: the socket of the seat to act, connected from
    `source` (another client address) if given."""
    with httpx.Client(base_url=server.http, timeout=10) as api:
        created = api.post("/api/rooms", json={"players": 2, "hints": True}).json()
        code, host = created["code"], created["host_token"]
        tokens = [api.post(f"/api/rooms/{code}/join", json={"name": name}).json()["seat_token"]
                  for name in ("Ana", "Bo")]
        assert api.post(f"/api/rooms/{code}/start", json={"token": host}).is_success
    player = Player(server.ws(code), tokens[0], source=source)
    if player.game()["current"] == 0:
        return player
    player.close()
    return Player(server.ws(code), tokens[1], source=source)


def _send_hint(player: Player, frame_id: str) -> dict[str, Any] | None:
    """Ask a hint, and wait until the server has taken the request in: the hint's task
    runs before the server reads what the socket sends after the pong to a later ping, so
    requests sent one after another are taken in that order. The answer, if it came before
    the pong (a refusal may come just after it)."""
    player.ws.send(json.dumps({"type": "hint", "id": frame_id}))
    player.ws.send(json.dumps({"type": "ping"}))
    answer = None
    while (frame := player.recv(timeout=30))["type"] != "pong":
        if frame.get("id") == frame_id:
            answer = frame
    return answer


def _ask(player: Player, frame_id: str) -> dict[str, Any]:
    player.ws.send(json.dumps({"type": "hint", "id": frame_id}))
    return _answer(player, frame_id)


def _answer(player: Player, frame_id: str) -> dict[str, Any]:
    while True:
        frame = player.recv(timeout=60)
        if frame["type"] in ("hint", "error") and frame.get("id") == frame_id:
            return frame


@contextlib.contextmanager
def _frozen(server: Server) -> Iterator[None]:
    """The bot worker (and multiprocessing's tracker) stopped for the block."""
    assert server.proc is not None
    stopped = children(server.proc.pid)
    assert stopped
    for pid in stopped:
        os.kill(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        for pid in stopped:
            os.kill(pid, signal.SIGCONT)


def _outcome(answer: dict[str, Any]) -> str:
    return "hint" if answer["type"] == "hint" else answer["code"]


def test_one_client_of_16_rooms_gets_two_hints_in_flight_and_the_server_four(
        server: Server) -> None:
    attack = [_hinted(server) for _ in range(16)]  # one client (127.0.0.1), 16 rooms
    second = [_hinted(server, source="127.0.0.2") for _ in range(2)]
    third = _hinted(server, source="127.0.0.3")
    try:
        with _frozen(server):
            early = [_send_hint(p, f"a{i}") for i, p in enumerate(attack)]
            early += [_send_hint(p, f"b{i}") for i, p in enumerate(second)]
            early.append(_send_hint(third, "c"))  # its first, but the server has 4 in flight
        players = [*attack, *second, third]
        ids = [*(f"a{i}" for i in range(16)), "b0", "b1", "c"]
        outcomes = [_outcome(answer or _answer(p, frame_id))
                    for answer, p, frame_id in zip(early, players, ids, strict=True)]
        assert outcomes[:16] == ["hint"] * PER_ADDRESS + ["hint_busy"] * (16 - PER_ADDRESS)
        assert outcomes[16:] == ["hint", "hint", "hint_busy"]
        # Answered, they are no longer in flight: the third client is served now.
        assert _outcome(_ask(third, "c2")) == "hint"
    finally:
        for player in [*attack, *second, third]:
            player.close()


def test_a_hint_that_waited_out_the_deadline_in_the_queue_is_refused_hint_busy(
        tmp_path: Path) -> None:
    """BOT_DEADLINE counts from the request: the worker is held past it. The hint it had
    been given answers at once with what its search found by then (the expert's first
    choice); the one still waiting for it is not thought at all."""
    deadline = 1.0
    server = _server(tmp_path, BOT_DEADLINE=str(deadline))
    server.start()
    try:
        _warm(server)
        players = [_hinted(server) for _ in range(2)]
        with _frozen(server):
            for i, player in enumerate(players):
                assert _send_hint(player, f"h{i}") is None  # taken, and queued
            time.sleep(deadline + 0.2)  # at least this long: held past both deadlines
        assert [_outcome(_answer(p, f"h{i}")) for i, p in enumerate(players)] == [
            "hint", "hint_busy"]
        assert _outcome(_ask(players[0], "again")) == "hint"  # a fresh request is thought
        for player in players:
            player.close()
    finally:
        server.stop()

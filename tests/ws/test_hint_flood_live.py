"""One client must not hold the bots (issue 41.1), on a real server: hints and bot moves
share the bot worker, so a bot's move goes before every hint waiting for it, hints in
flight are capped per client address (HINTS_PER_ADDRESS) and server-wide
(HINTS_IN_FLIGHT), refused `hint_busy` past either, and a hint's deadline counts from
its request, so one that waited out BOT_DEADLINE in the queue is refused `hint_busy`
rather than thought late.

The bot worker is frozen (SIGSTOP) while the requests arrive, so what is queued, what is
refused and in which order the worker takes them does not depend on the machine's load.
The pace a bot table keeps under the whole 16-room attack is measured by
bench/hint_flood.py (figures, not assertions)."""

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


def _hinted(server: Server, source: str | None = None, bot: bool = False) -> Player:
    """A started 2-player room with hints: the socket of the seat to act (seat 0 when
    the other is a `greedy` bot, once the bot has played if it goes first)."""
    with httpx.Client(base_url=server.http, timeout=10) as api:
        created = api.post("/api/rooms", json={"players": 2, "hints": True}).json()
        code, host = created["code"], created["host_token"]
        tokens = [api.post(f"/api/rooms/{code}/join", json={"name": "Ana"}).json()["seat_token"]]
        if bot:
            assert api.post(f"/api/rooms/{code}/bot",
                            json={"token": host, "seat": 1, "level": "greedy"}).is_success
        else:
            tokens.append(api.post(f"/api/rooms/{code}/join",
                                   json={"name": "Bo"}).json()["seat_token"])
        assert api.post(f"/api/rooms/{code}/start", json={"token": host}).is_success
    player = Player(server.ws(code), tokens[0], source=source)
    if player.game()["current"] == 0:
        return player
    if bot:  # the bot goes first: its move comes
        while player.game()["current"] != 0:
            player.recv(timeout=30)
        return player
    player.close()
    return Player(server.ws(code), tokens[1], source=source)


def _send_hint(player: Player, frame_id: str) -> None:
    """Ask a hint, and wait until the server has taken the request in: the pong to a later
    ping comes once the hint's request has been refused or queued for the worker."""
    player.ws.send(json.dumps({"type": "hint", "id": frame_id}))
    player.ws.send(json.dumps({"type": "ping"}))
    while player.recv(timeout=30)["type"] != "pong":
        pass


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
            for i, player in enumerate(attack):
                _send_hint(player, f"a{i}")
            for i, player in enumerate(second):
                _send_hint(player, f"b{i}")
            _send_hint(third, "c")  # its own first hint, but the server has 4 in flight
        outcomes = [_outcome(_answer(p, f"a{i}")) for i, p in enumerate(attack)]
        assert outcomes == ["hint"] * PER_ADDRESS + ["hint_busy"] * (16 - PER_ADDRESS)
        assert [_outcome(_answer(p, f"b{i}")) for i, p in enumerate(second)] == ["hint"] * 2
        assert _outcome(_answer(third, "c")) == "hint_busy"
        # Answered, they are no longer in flight: the third client is served now.
        assert _outcome(_ask(third, "c2")) == "hint"
    finally:
        for player in [*attack, *second, third]:
            player.close()


def test_a_bot_move_goes_before_the_hints_queued_ahead_of_it(server: Server) -> None:
    """A hint holds the worker and another waits; then a player's act makes it a bot's
    turn. The bot's move is thought before the waiting hint: at that table the move's
    patch comes first, the hint's answer after it (`stale`: the game moved on)."""
    holder = _hinted(server)
    table = _hinted(server, source="127.0.0.2", bot=True)  # seat 0 a person, seat 1 a bot
    try:
        with _frozen(server):
            _send_hint(holder, "first")  # taken by the worker (frozen)
            _send_hint(table, "waiting")  # queued behind it
            while table.game()["current"] == 0:  # play on until it is the bot's turn
                table.act(table.game()["legal"][0])
            table.ws.send(json.dumps({"type": "ping"}))  # the bot's move is queued now
            while table.recv(timeout=30)["type"] != "pong":
                pass
        seen = []
        while "answer" not in seen:
            frame = table.recv(timeout=60)
            if frame["type"] == "patch" and frame["events"]:
                seen.append("bot move")
            elif frame.get("id") == "waiting":
                seen.append("answer")
        assert seen[0] == "bot move", seen
        assert _answer(holder, "first")["type"] in ("hint", "error")
    finally:
        holder.close()
        table.close()


def test_a_hint_that_waited_out_the_deadline_in_the_queue_is_refused_hint_busy(
        tmp_path: Path) -> None:
    """BOT_DEADLINE counts from the request: the worker is held past it, so neither the
    hint it had taken nor the one waiting is thought (each would be past its deadline
    before it began)."""
    deadline = 1.0
    server = _server(tmp_path, BOT_DEADLINE=str(deadline))
    server.start()
    try:
        _warm(server)
        players = [_hinted(server) for _ in range(2)]
        with _frozen(server):
            for i, player in enumerate(players):
                _send_hint(player, f"h{i}")
            time.sleep(deadline + 0.2)  # at least this long: held past both deadlines
        assert [_outcome(_answer(p, f"h{i}")) for i, p in enumerate(players)] == [
            "hint_busy", "hint_busy"]
        assert _outcome(_ask(players[0], "again")) == "hint"  # a fresh request is thought
        for player in players:
            player.close()
    finally:
        server.stop()

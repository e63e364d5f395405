"""A real `python -m server` process that a test can SIGKILL and start again, and
websocket players that remember every action the server acknowledged."""

from __future__ import annotations

import asyncio
import json
import random
import signal
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import jsonpatch
from websockets.sync.client import ClientConnection, connect

from server.db.records import GameDetail
from server.db.session import make_engine, session_factory
from server.rules import OVER, Game, apply, new_game, view
from tests.serving import free_port, launch, wait_ready
from tests.stored import game_by_room


class Server:
    """One server process at a time on the given database; `kill` is a crash (SIGKILL),
    `terminate` a graceful stop (SIGTERM). With `log`, each run's stderr is appended to
    that file (see `errors`)."""

    def __init__(self, env: dict[str, str], log: Path | None = None) -> None:
        self.env = dict(env)
        self.proc: subprocess.Popen[bytes] | None = None
        self.http = ""
        self.log = log

    def start(self) -> None:
        port = free_port()
        self.http = f"http://127.0.0.1:{port}"
        stderr = None if self.log is None else self.log.open("ab")
        try:
            self.proc = launch({**self.env, "PORT": str(port)}, stderr=stderr)
        finally:
            if stderr is not None:
                stderr.close()
        try:
            wait_ready(self.proc, self.http)
        except RuntimeError as exc:
            raise RuntimeError(f"{exc}; stderr: {self.errors()[-2000:]}") from None

    def ws(self, code: str) -> str:
        return self.http.replace("http", "ws", 1) + f"/ws/{code}"

    def health(self) -> dict[str, Any]:
        return httpx.get(f"{self.http}/healthz", timeout=5).json()

    def errors(self) -> str:
        """Everything the runs so far wrote to stderr (with `log`)."""
        return "" if self.log is None or not self.log.exists() else self.log.read_text()

    def terminate(self) -> bool:
        """A graceful stop (SIGTERM); True if the process ended as a stopped server does
        (uvicorn re-raises the signal once it has shut down)."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(30) in (0, -signal.SIGTERM)

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


class Player:
    """A seat's socket, keeping its view from the snapshot and patches."""

    def __init__(self, url: str, token: str, v: int | None = None,
                 source: str | None = None) -> None:
        # Entered here and closed by close(): websockets wants connect() used as a context.
        # `source`: the local address to connect from (another client, e.g. 127.0.0.2).
        where = {} if source is None else {"source_address": (source, 0)}
        self.ws: ClientConnection = connect(url, open_timeout=5, **where).__enter__()
        self.view: dict[str, Any] | None = None
        self.v = -1
        self.watcher: dict[str, Any] | None = None
        try:
            self.ws.send(json.dumps({"type": "hello", "token": token, "v": v}))
            self.first = self.recv()  # the snapshot, or an error
        except BaseException:
            self.close()
            raise

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        frame = json.loads(self.ws.recv(timeout=timeout))
        while frame["type"] == "watcher":  # a spectator is told who it is: kept, not returned
            self.watcher = frame
            frame = json.loads(self.ws.recv(timeout=timeout))
        if frame["type"] == "snapshot":
            self.view, self.v = frame["view"], frame["v"]
        elif frame["type"] == "patch":
            assert frame["v"] == self.v + 1, (self.v, frame["v"])
            self.view = jsonpatch.apply_patch(self.view, frame["ops"])
            self.v = frame["v"]
        return frame

    def game(self) -> dict[str, Any]:
        assert self.view is not None and self.view["game"] is not None
        return self.view["game"]

    def send_act(self, action: dict[str, Any]) -> None:
        self.ws.send(json.dumps({"type": "act", "id": self.v, "v": self.v, "action": action}))

    def act(self, action: dict[str, Any]) -> None:
        """Send one action and read until it is acknowledged."""
        self.send_act(action)
        while (frame := self.recv())["type"] != "ack":
            assert frame["type"] in ("patch", "snapshot"), frame

    def close(self) -> None:
        self.ws.close()


class Table:
    """A room made over HTTP; its players' sockets; every acknowledged (seat, action).
    A context manager (closed after the block); one that fails to set up closes what it
    opened before raising."""

    def __init__(self, server: Server, players: int, seed: int) -> None:
        self.api = httpx.Client(base_url=server.http, timeout=10)
        self.players: list[Player] = []
        try:
            created = self.api.post("/api/rooms", json={"players": players}).json()
            self.code, self.host = created["code"], created["host_token"]
            self.tokens = [self.join(f"P{s}") for s in range(players)]
            started = self.api.post(f"/api/rooms/{self.code}/start", json={"token": self.host})
            assert started.is_success, started.text
            self.rng = random.Random(seed)
            self.acked: list[tuple[int, dict[str, Any]]] = []
            self.connect(server)
        except BaseException:
            self.close()
            raise

    def __enter__(self) -> Table:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def join(self, name: str) -> str:
        """A seat's token; a refused join fails with the server's answer, not a KeyError."""
        reply = self.api.post(f"/api/rooms/{self.code}/join", json={"name": name})
        assert reply.is_success and "seat_token" in reply.json(), reply.text
        return str(reply.json()["seat_token"])

    def connect(self, server: Server) -> None:
        """(Re)open every seat's socket, resuming from the last version each one saw."""
        self.api.close()
        self.api = httpx.Client(base_url=server.http, timeout=10)
        seen = [p.v for p in self.players] or [None] * len(self.tokens)
        players: list[Player] = []
        try:
            for t, v in zip(self.tokens, seen, strict=True):
                players.append(Player(server.ws(self.code), t, v))
        except BaseException:  # the sockets opened so far are closed; the old ones stay
            for p in players:
                p.close()
            raise
        self.players = players

    def current(self) -> Player:
        """The player to act, once every socket has caught up with the newest version."""
        target = max(p.v for p in self.players)
        for p in self.players:
            while p.v < target:
                p.recv()
        return self.players[self.players[0].game()["current"]]

    def choose(self) -> tuple[int, dict[str, Any]]:
        actor = self.current()
        return actor.game()["seat"], self.rng.choice(actor.game()["legal"])

    def play(self, count: int | None = None) -> None:
        """Play random legal actions: `count` of them, or to the end of the game."""
        done = 0
        while self.players[0].game()["phase"] != "over" and (count is None or done < count):
            seat, action = self.choose()
            self.players[seat].act(action)
            self.acked.append((seat, action))
            done += 1
            self.current()

    def close(self) -> None:
        for p in self.players:
            p.close()
        self.api.close()


def play_out(ws: str, tokens: dict[int, str], seed: int) -> dict[str, Any]:
    """Random legal moves for the seats in `tokens` at the room socket `ws` (bots play the
    others) until the end; the final view of the game."""
    rng = random.Random(seed)
    players = {seat: Player(ws, token) for seat, token in tokens.items()}
    watch = next(iter(players.values()))
    try:
        while True:
            game = watch.game()
            if game["phase"] == "over":
                return game
            mover = players.get(game["current"])
            if mover is None:  # a bot's turn: wait for its move
                watch.recv(timeout=30)
                continue
            while mover.v < watch.v:
                mover.recv()
            mover.act(rng.choice(mover.game()["legal"]))
            while watch.v < mover.v:
                watch.recv()
    finally:
        for p in players.values():
            p.close()


def bots_game(url: str) -> str:
    """A started two-player room with a random bot in each seat, made over HTTP at `url`;
    its code."""
    with httpx.Client(base_url=url, timeout=10) as api:
        created = api.post("/api/rooms", json={"players": 2}).json()
        code, host = created["code"], created["host_token"]
        for seat in (0, 1):
            assert api.post(f"/api/rooms/{code}/bot",
                            json={"token": host, "seat": seat, "level": "random"}).is_success
        assert api.post(f"/api/rooms/{code}/start", json={"token": host}).is_success
    return code


def play_in_process(client: Any, code: str, choose: Callable[[Any, int], dict[str, Any]],
                    actions: int | None) -> None:
    """Play the room `code` of the in-process app behind `client` (a TestClient), every seat
    by `choose(room, seat)`: `actions` of them, or to the end (None)."""
    room = client.app.state.rooms.get(code)
    done = 0
    while room.game.phase != OVER and (actions is None or done < actions):
        seat = room.game.current
        client.portal.call(room.act, seat, choose(room, seat), room.v)
        done += 1


def replay(seed: int, players: int, actions: list[tuple[int, dict[str, Any]]]) -> Game:
    game = new_game(seed, players)
    for seat, action in actions:
        apply(game, action, seat)
    return game


def seat_views(game: Game) -> list[dict[str, Any]]:
    return [json.loads(json.dumps(view(game, s))) for s in range(game.n)]


def stored_game(url: str, code: str) -> GameDetail | None:
    async def load() -> GameDetail | None:
        engine = make_engine(url)
        try:
            async with session_factory(engine)() as s:
                return await game_by_room(s, code.replace("-", ""))
        finally:
            await engine.dispose()

    return asyncio.run(load())

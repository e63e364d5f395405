"""Scripted tournament players for the live tests: each is a signed-in account (its own
client address) that watches the tournament's socket, takes its seat at each new table of
its own (POST /api/rooms/{code}/rejoin, then the table's socket) and plays random legal
actions on its turns until the game is over, as a person's browser would."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import httpx
import jsonpatch
from websockets.asyncio.client import ClientConnection, connect

from tests.serving import CLIENT_KEEPALIVE_EXPIRY


def browser(url: str, address: str) -> httpx.AsyncClient:
    """A browser at `address` (the server trusts the test's X-Forwarded-For); it lets an idle
    connection go before the server does (tests/serving.py's CLIENT_KEEPALIVE_EXPIRY)."""
    limits = httpx.Limits(keepalive_expiry=CLIENT_KEEPALIVE_EXPIRY)
    return httpx.AsyncClient(base_url=url, timeout=30, limits=limits,
                             headers={"x-forwarded-for": address, "origin": url})


async def sign_up(client: httpx.AsyncClient, name: str) -> int:
    r = await client.post("/api/accounts", json={"name": name, "password": "correct horse"})
    assert r.status_code == 201, r.text
    return int(r.json()["id"])


class Player:
    def __init__(self, url: str, name: str, address: str, seed: int) -> None:
        self.url, self.name = url, name
        self.ws_url = url.replace("http://", "ws://")
        self.client = browser(url, address)
        self.rng = random.Random(seed)
        self.id = 0
        self.tables: list[str] = []  # the rooms it played, in order
        self.actions = 0

    async def sign_up(self) -> None:
        self.id = await sign_up(self.client, self.name)

    async def enter(self, tournament: int) -> None:
        r = await self.client.post(f"/api/tournaments/{tournament}/join", json={})
        assert r.status_code == 200, r.text

    async def play_tournament(self, tournament: int) -> dict[str, Any]:
        """Plays every table the tournament gives this player; returns the last state. The
        tournament's socket is read on while a table is played (a page keeps reading its
        socket; one left unread stops answering the server's keepalive pings)."""
        async with connect(f"{self.ws_url}/tournaments/{tournament}/socket",
                           open_timeout=10) as watch:
            playing: set[asyncio.Task[None]] = set()
            try:
                while True:
                    doc = await self.next_state(watch, playing)
                    if doc["status"] in ("finished", "cancelled"):
                        await asyncio.gather(*playing)
                        return doc
                    for code in self.my_open_tables(doc):
                        self.tables.append(code)
                        playing.add(asyncio.create_task(self.play_table(code)))
            finally:
                for task in playing:
                    task.cancel()

    @staticmethod
    async def next_state(watch: ClientConnection,
                         playing: set[asyncio.Task[None]]) -> dict[str, Any]:
        """The tournament's next state (within 120 s); a table that failed raises here."""
        frame = asyncio.ensure_future(watch.recv())
        try:
            while True:
                done, _ = await asyncio.wait({frame, *playing}, timeout=120,
                                             return_when=asyncio.FIRST_COMPLETED)
                if not done:
                    raise TimeoutError("the tournament said nothing for 120 s")
                for task in [t for t in playing if t in done]:
                    playing.discard(task)
                    task.result()
                if frame in done:
                    message = json.loads(frame.result())
                    assert message["type"] == "tournament", message
                    return message["tournament"]
        finally:
            frame.cancel()

    def my_open_tables(self, doc: dict[str, Any]) -> list[str]:
        return [t["code"] for r in doc["rounds_played"] for t in r["tables"]
                if t["code"] and not t["ended"] and t["code"] not in self.tables
                and any(p["id"] == self.id for p in t["players"])]

    async def play_table(self, code: str) -> None:
        r = await self.client.post(f"/api/rooms/{code}/rejoin", json={})
        assert r.status_code == 200, r.text
        seat, token = r.json()["seat"], r.json()["seat_token"]
        async with connect(f"{self.ws_url}/ws/{code}", open_timeout=10) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            await Table(ws, seat, self).play()


class Table:
    """One seat's socket: the view kept by its patches, an act on each of its turns."""

    def __init__(self, ws: ClientConnection, seat: int, player: Player) -> None:
        self.ws, self.seat, self.player = ws, seat, player
        self.view: dict[str, Any] | None = None
        self.v = -1
        self.waiting = False  # an act sent, its ack not yet back

    async def recv(self) -> None:
        frame = json.loads(await asyncio.wait_for(self.ws.recv(), 60))
        kind = frame["type"]
        if kind == "snapshot":
            self.view, self.v = frame["view"], frame["v"]
        elif kind == "patch":
            assert frame["v"] == self.v + 1, (frame["v"], self.v)
            self.view = jsonpatch.apply_patch(self.view, frame["ops"])
            self.v = frame["v"]
        elif kind == "ack":
            self.waiting = False
        elif kind == "error":
            raise AssertionError(frame)

    async def play(self) -> None:
        while True:
            game = None if self.view is None else self.view["game"]
            if game is not None and game.get("result") is not None:
                return
            if (game is not None and not self.waiting and game["current"] == self.seat
                    and game.get("legal")):
                legal = [a for a in game["legal"] if a["type"] != "undo"] or game["legal"]
                action = self.player.rng.choice(legal)
                self.waiting = True
                self.player.actions += 1
                await self.ws.send(json.dumps({"type": "act", "id": self.player.actions,
                                               "v": self.v, "action": action}))
            await self.recv()

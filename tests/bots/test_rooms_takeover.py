"""A bot stands in for a player who stays away: after SEAT_GRACE (the room's clock) on their
turn, or as soon as their turn comes once it has run out; the player gets the seat back
when they reconnect, before the bot's next action. Expired rooms stop their bot tasks."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from conftest import Viewer
from fastapi.testclient import TestClient

from server.bots import driver as driver_module
from server.bots.driver import BotDriver, Grace
from server.main import create_app

from .test_rooms_play import driver, room_with_bots, wait_until


class Clock:
    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class Gate:
    """A pool stand-in that thinks only when the test lets it: each decision waits for a
    permit, then takes the first legal action."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.released = 0
        self._permits = threading.Semaphore(0)

    async def choose(self, level: str, view: dict, seed: int, budget: float,
                     key: str | None = None) -> dict:
        self.calls.append((level, view))
        while not await asyncio.to_thread(self._permits.acquire, True, 0.05):
            pass
        return view["legal"][0]

    def release(self) -> None:
        self.released += 1
        self._permits.release()

    def close(self) -> None:
        pass


@pytest.fixture(autouse=True)
def no_grace_polling(monkeypatch: pytest.MonkeyPatch) -> None:
    """The driver also looks at the room clock every GRACE_CHECK real seconds; here it
    never does during a test, so only the injected clock (and a wake) moves a grace on."""
    monkeypatch.setattr(driver_module, "GRACE_CHECK", 3600.0)


def tick(client: TestClient, bots: BotDriver, room: Any, clock: Clock, now: float) -> None:
    """Move the room clock to `now` and let the driver look at the room again."""
    clock.now = now
    client.portal.call(bots.wake, room)


def app(make_settings: Any, clock: Clock, **settings: Any) -> TestClient:
    return TestClient(create_app(make_settings(BOT_DELAY=0.0, **settings), clock=clock))


def act_as(client: TestClient, room: Any, seat: int) -> None:
    client.portal.call(room.act, seat, room.view(seat)["game"]["legal"][0], room.v)


def test_a_bot_plays_for_an_away_player_until_they_come_back(make_settings):
    clock = Clock()
    with app(make_settings, clock, SEAT_GRACE=30.0) as client:
        bots: BotDriver = driver(client)
        gate = bots.pool = Gate()
        code, tokens, _ = room_with_bots(client, {}, 2)
        room = client.app.state.rooms.get(code)  # type: ignore[attr-defined]
        with client.websocket_connect(f"/ws/{code}") as wa:
            ana = Viewer(wa)
            ana.hello(tokens[0])
            with client.websocket_connect(f"/ws/{code}") as wb:
                Viewer(wb).hello(tokens[1])
                wait_until(lambda: room.seats[1].conn is not None)
                while room.game.current != 0:
                    act_as(client, room, 1)
                clock.now = 2000.0
            # Bo leaves during Ana's turn; the grace runs from the disconnect.
            wait_until(lambda: room.seats[1].conn is None)
            assert room.seats[1].away_since == 2000.0
            clock.now = 2031.0
            assert bots.next_up(room) is None  # Ana's turn: nobody stands in yet
            assert room.seats[1].stand_in is None and "stand_in" not in room.info()["seats"][1]
            # Bo's turn comes after the grace ran out: a greedy bot plays for him at once.
            while room.game.current != 1:
                act_as(client, room, 0)
            wait_until(lambda: room.seats[1].stand_in == "greedy" and len(gate.calls) == 1)
            level, seen = gate.calls[0]
            assert (level, seen["seat"], seen["current"]) == ("greedy", 1, 1)
            ana.sync(room.v)
            assert ana.view["room"]["seats"][1]["stand_in"] == "greedy"
            assert {"type": "stand_in", "seat": 1, "level": "greedy"} in room.history.since(
                room.v - 1, room.v)[0].events
            # The bot plays Bo's turn; Ana plays hers; Bo's next turn, the bot thinks again.
            while room.game.current == 1:
                wait_until(lambda: len(gate.calls) > gate.released)
                done = len(room.actions)
                gate.release()
                wait_until(lambda done=done: len(room.actions) > done)
            while room.game.current != 1:
                act_as(client, room, 0)
            wait_until(lambda: len(gate.calls) > gate.released)
            done = len(room.actions)
            # Bo comes back while the bot is thinking: its answer is dropped, the seat is his.
            with client.websocket_connect(f"/ws/{code}") as wb:
                bo = Viewer(wb)
                bo.hello(tokens[1])
                wait_until(lambda: room.seats[1].conn is not None)
                bo.sync(room.v)
                assert room.seats[1].stand_in is None
                assert "stand_in" not in bo.view["room"]["seats"][1]
                gate.release()
                wait_until(lambda: room.code not in bots.running())
                assert len(room.actions) == done and room.game.current == 1
                assert bots.next_up(room) is None
                action = room.view(1)["game"]["legal"][0]
                bo.send({"type": "act", "id": "mine", "v": room.v, "action": action})
                assert bo.expect("ack")["id"] == "mine"
                assert room.actions[done] == (1, action)
            ana.sync(room.v)
            assert ana.view == room.view(0)


def test_the_grace_runs_on_the_players_turn_and_expired_rooms_stop_their_bot(make_settings):
    clock = Clock()
    with app(make_settings, clock, SEAT_GRACE=30.0, ROOM_IDLE_TTL=600.0) as client:
        bots: BotDriver = driver(client)
        gate = bots.pool = Gate()
        code, tokens, _ = room_with_bots(client, {}, 2)
        room = client.app.state.rooms.get(code)  # type: ignore[attr-defined]
        with client.websocket_connect(f"/ws/{code}") as wb:
            Viewer(wb).hello(tokens[1])
            wait_until(lambda: room.seats[1].conn is not None)
            while room.game.current != 1:
                act_as(client, room, 0)
            clock.now = 2000.0
        # Bo leaves on his own turn (Ana never connected: her seat is away since the join).
        wait_until(lambda: room.code in bots.running() and room.seats[1].conn is None)
        assert bots.next_up(room) == Grace(1, 30.0)
        clock.now = 2029.0
        assert bots.next_up(room) == Grace(1, 1.0) and room.seats[1].stand_in is None
        tick(client, bots, room, clock, 2030.5)
        wait_until(lambda: room.seats[1].stand_in == "greedy" and len(gate.calls) == 1)
        # Nobody is connected for ROOM_IDLE_TTL: the room expires, its bot stops.
        done = len(room.actions)
        clock.now = 3000.0
        manager = client.app.state.rooms  # type: ignore[attr-defined]
        assert client.portal.call(manager.sweep) == [room.code]
        gate.release()
        wait_until(lambda: room.code not in bots.running())
        assert len(room.actions) == done

"""Bots at live tables: they finish whole games through the room layer against a person on a
websocket, choose only legal actions from their own seat's view (never the deck order),
shrug off errors, and carry on after a restart."""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from conftest import Viewer
from fastapi.testclient import TestClient

from server.bots.driver import BotDriver
from server.config import Settings
from server.main import create_app


class Recorder:
    """Wraps the bots' pool: every decision asked (level, seat's view) and its answer."""

    def __init__(self, pool: Any, fail_first: int = 0) -> None:
        self.pool = pool
        self.fail_first = fail_first
        self.calls: list[tuple[str, dict[str, Any], dict[str, Any]]] = []

    async def choose(self, level: str, view: dict, seed: int, budget: float,
                     key: str | None = None) -> dict:
        if self.fail_first > 0:
            self.fail_first -= 1
            raise RuntimeError("a worker fell over")
        action = await self.pool.choose(level, view, seed, budget, key)
        self.calls.append((level, view, action))
        return action

    def close(self) -> None:
        self.pool.close()


@contextlib.contextmanager
def running(settings: Settings, **kwargs: Any) -> Iterator[TestClient]:
    with TestClient(create_app(settings, **kwargs)) as client:
        yield client


def driver(client: TestClient) -> BotDriver:
    bots = client.app.state.bots  # type: ignore[attr-defined]
    assert isinstance(bots, BotDriver)
    return bots


def room_with_bots(client: TestClient, bots: dict[int, str], players: int,
                   **options: Any) -> tuple[str, list[str], str]:
    """A started room: a bot of the given level in each listed seat, people elsewhere.
    Returns its code, the people's seat tokens (by seat order) and the host token."""
    created = client.post("/api/rooms", json={"players": players, **options}).json()
    code, host = created["code"], created["host_token"]
    tokens = []
    for seat in range(players):
        if seat in bots:
            r = client.post(f"/api/rooms/{code}/bot",
                            json={"token": host, "seat": seat, "level": bots[seat]})
        else:
            r = client.post(f"/api/rooms/{code}/join", json={"name": f"P{seat}", "seat": seat})
            tokens.append(r.json()["seat_token"])
        assert r.is_success, r.text
    assert client.post(f"/api/rooms/{code}/start", json={"token": host}).is_success
    return code, tokens, host


def play_out(me: Viewer, rng: random.Random, frames: int = 20_000) -> None:
    """As a person on `me`'s seat: a random legal action whenever it is my turn (one at a
    time: the next after the last one's ack), until the game is over. Any error frame fails
    the test."""
    waiting = False
    for _ in range(frames):
        game = me.view["game"] if me.view else None
        if game is not None and game["phase"] == "over":
            return
        if game is not None and game["legal"] and not waiting:
            me.send({"type": "act", "id": me.v, "v": me.v, "action": rng.choice(game["legal"])})
            waiting = True
        frame = me.recv(timeout=20)
        assert frame["type"] != "error", frame
        waiting = waiting and frame["type"] != "ack"
    pytest.fail("the game did not end")


def wait_until(check: Callable[[], bool], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.01)


def check_decisions(calls: list[tuple[str, dict[str, Any], dict[str, Any]]],
                    bot_seats: set[int]) -> None:
    assert calls
    for _, view, action in calls:
        assert action in view["legal"]
        assert view["seat"] in bot_seats and view["current"] == view["seat"]
        # R-HIDDEN: the deck as a count, no seed, no result (so no deck order) while playing.
        assert type(view["deck"]) is int and view["result"] is None
        assert "seed" not in view


@pytest.mark.parametrize(("players", "bots"), [
    (2, {1: "greedy"}),
    (3, {0: "random", 2: "greedy"}),
    (4, {1: "greedy", 2: "random", 3: "strong"}),
])
def test_bots_finish_a_game_against_a_person(make_settings, players, bots):
    settings = make_settings(BOT_DELAY=0.0, BOT_BUDGET=0.02)
    with running(settings) as client:
        recorder = driver(client).pool = Recorder(driver(client).pool)
        code, tokens, _ = room_with_bots(client, bots, players)
        with client.websocket_connect(f"/ws/{code}") as ws:
            me = Viewer(ws)
            me.hello(tokens[0])
            play_out(me, random.Random(players))
        room = client.app.state.rooms.get(code)  # type: ignore[attr-defined]
        assert room.status == "finished" and room.game.phase == "over"
        assert {seat for seat, _ in room.actions} == set(range(players))
        check_decisions(recorder.calls, set(bots))
        assert {level for level, _, _ in recorder.calls} == set(bots.values())
        wait_until(lambda: not driver(client).running())  # the room's task ended with it


def test_bots_alone_finish_a_game_and_errors_only_delay_them(make_settings):
    settings = make_settings(BOT_DELAY=0.0, BOT_BUDGET=0.02)
    with running(settings) as client:
        recorder = driver(client).pool = Recorder(driver(client).pool, fail_first=2)
        code, _, _ = room_with_bots(client, {0: "random", 1: "greedy", 2: "random"}, 3)
        room = client.app.state.rooms.get(code)  # type: ignore[attr-defined]
        wait_until(lambda: room.status == "finished", timeout=40)
        assert recorder.fail_first == 0 and room.game.phase == "over"
        check_decisions(recorder.calls, {0, 1, 2})
        assert {level for level, view, _ in recorder.calls if view["seat"] == 1} == {"greedy"}


def test_a_restored_room_with_a_bot_to_act_plays_on(make_settings):
    # Bots off the first time, so the game stops with the bot to act when the server does.
    with running(make_settings(BOT_WORKERS=0)) as client:
        assert client.app.state.bots is None  # type: ignore[attr-defined]
        code, tokens, _ = room_with_bots(client, {1: "greedy"}, 2)
        room = client.app.state.rooms.get(code)  # type: ignore[attr-defined]
        while room.game.current != 1:  # the person plays up to the bot's turn
            client.portal.call(room.act, 0, room.view(0)["game"]["legal"][0], room.v)
        done = len(room.actions)
    with running(make_settings(BOT_DELAY=0.0, BOT_BUDGET=0.02)) as client:
        room = client.app.state.rooms.get(code)  # type: ignore[attr-defined]
        wait_until(lambda: len(room.actions) > done)
        assert room.actions[done][0] == 1
        with client.websocket_connect(f"/ws/{code}") as ws:
            me = Viewer(ws)
            me.hello(tokens[0])
            play_out(me, random.Random(5))
        assert room.status == "finished"


def test_the_api_offers_exactly_the_bot_levels_there_are():
    from typing import get_args

    from server.api.models import SeatBot
    from server.bots.levels import LEVELS

    assert set(get_args(SeatBot.model_fields["level"].annotation)) == set(LEVELS)

"""A restart keeps the table's talk and stops its clock: the chat comes back on hello, and
the player to act has exactly the time they had at shutdown, however long it lasted, with
the clock held until they are connected again (docs/PROTOCOL.md, clock)."""

from __future__ import annotations

from collections.abc import Callable

from conftest import Table, Viewer
from fastapi.testclient import TestClient

from server.config import Settings
from server.main import create_app


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_a_restart_keeps_chat_and_costs_nobody_time(
    make_settings: Callable[..., Settings], db_url: str
) -> None:
    settings = make_settings(DATABASE_URL=db_url, BOT_WORKERS=0)
    before = Clock(1000.0)
    with TestClient(create_app(settings, clock=before)) as client:
        table = Table(client, 2, clock={"turn": 60, "bank": 300})
        table.join_all()
        table.start()
        with client.websocket_connect(f"/ws/{table.code}") as ws:
            ana = Viewer(ws)
            ana.hello(table.tokens[0])
            ana.send({"type": "chat", "id": "c1", "text": "brb, coffee"})
            ana.expect("chat")
            ana.expect("ack")
        seat = table.room.game.current
        before.now += 75.0  # 60 s of turn and 15 s of bank used; then a clean shutdown
    after = Clock(5.0)  # another process, much later
    with TestClient(create_app(settings, clock=after)) as client:
        room = client.app.state.rooms.get(table.code)  # type: ignore[attr-defined]
        clock = room.info()["clock"]
        assert (clock["seat"], clock["turn_ms"], clock["bank_ms"][seat]) == (seat, 0, 285_000)
        assert clock["running"] is False and room.turn_clock.deadline() is None
        with client.websocket_connect(f"/ws/{table.code}") as ws:
            player = Viewer(ws)
            player.hello(table.tokens[seat])
            recent = player.expect("chat")
            assert recent["recent"] and [m["text"] for m in recent["messages"]] == ["brb, coffee"]
            assert room.turn_clock.deadline() == 5.0 + 285.0
        assert room.options.to_dict()["clock"] == {"turn": 60, "bank": 300}

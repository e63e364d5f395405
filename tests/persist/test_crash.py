"""A server killed mid-game (SIGKILL) comes back with every acknowledged action."""

from __future__ import annotations

from pathlib import Path

import pytest

from .live import Server, Table, replay, seat_views, stored_game

SEED, PLAYERS = 11, 3


@pytest.fixture
def server(tmp_path: Path):
    url = f"sqlite+aiosqlite:///{tmp_path}/data/coffee-rush.db"
    s = Server({
        "DATABASE_URL": url, "TEST_FIXED_SEED": str(SEED),
        "JOURNAL_FALLBACK_PATH": str(tmp_path / "data" / "journal-fallback.jsonl"),
    })
    s.start()
    yield s
    s.stop()


def test_sigkill_mid_game_loses_no_acknowledged_action(server: Server) -> None:
    table = Table(server, PLAYERS, seed=3)
    table.play(40)
    # One more action in flight when the process dies: it may or may not have been kept,
    # but nothing else may be.
    in_flight = table.choose()
    table.players[in_flight[0]].send_act(in_flight[1])
    server.kill()
    table.close()

    server.start()
    table.connect(server)
    for p in table.players:
        assert p.first["type"] == "snapshot"  # versions jumped: no patch from the old numbering
    views = [p.game() for p in table.players]
    kept = table.acked + [in_flight]
    if views != seat_views(replay(SEED, PLAYERS, kept)):
        kept = table.acked
        assert views == seat_views(replay(SEED, PLAYERS, kept))
    table.acked = kept
    info = table.api.get(f"/api/rooms/{table.code}").json()
    assert info["status"] == "playing" and [s["name"] for s in info["seats"]] == ["P0", "P1", "P2"]
    assert info["host_seat"] == 0

    table.play()
    game = replay(SEED, PLAYERS, table.acked)
    assert game.phase == "over" and seat_views(game) == [p.game() for p in table.players]
    assert table.api.get(f"/api/rooms/{table.code}").json()["status"] == "finished"
    table.close()
    server.stop()  # SIGKILL again: the finished game was journaled before anyone heard of it
    saved = stored_game(server.env["DATABASE_URL"], table.code)
    assert saved is not None
    assert [list(a) for a in saved.actions] == [[s, a] for s, a in table.acked]
    assert saved.result["scores"] == game.result["scores"]
    assert [p.total for p in saved.summary.players] == [
        s["total"] for s in game.result["scores"]
    ]
    assert [p.name for p in saved.summary.players] == ["P0", "P1", "P2"]

"""Chat follows the rule actions follow, on a real server: PostgreSQL goes away and the
fallback file's disk fills; a message that cannot be made durable is refused
`unavailable`, not acknowledged and sent to nobody, and after a crash and restart exactly
the acknowledged messages are there.

The fallback file lives on a real 64 KiB tmpfs (root only; skipped elsewhere)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from db.conftest import PG_URL
from db.disk import fill, small_disk
from sqlalchemy.engine import make_url

from .live import Player, Server, Table
from .test_full_disk import db_proxy  # noqa: F401  (the fixture)
from .test_outage import ProxyThread


def say(player: Player, text: str, frame_id: str) -> str:
    """Send a message; 'ack' or the error code it got."""
    player.ws.send(json.dumps({"type": "chat", "id": frame_id, "text": text}))
    while True:
        frame = player.recv()
        if frame["type"] in ("ack", "error") and frame.get("id") == frame_id:
            return "ack" if frame["type"] == "ack" else frame["code"]


def heard_until(player: Player, last: str) -> list[str]:
    """The texts of the chat frames `player` gets, up to and including `last`."""
    texts: list[str] = []
    while not texts or texts[-1] != last:
        frame = player.recv()
        if frame["type"] == "chat":
            texts += [m["text"] for m in frame["messages"]]
    return texts


def test_no_chat_is_acknowledged_that_a_full_disk_could_not_keep(
    db_proxy: ProxyThread, tmp_path: Path  # noqa: F811
) -> None:
    with small_disk(tmp_path / "disk") as disk:
        via_proxy = make_url(PG_URL).set(port=db_proxy.proxy.port).render_as_string(False)
        server = Server({
            "DATABASE_URL": via_proxy, "BOT_WORKERS": "0", "DB_TIMEOUT": "1",
            "JOURNAL_FALLBACK_PATH": str(disk / "journal-fallback.jsonl"),
            "CHAT_RATE": "1000",
        })
        server.start()
        ballast: Path | None = None
        try:
            table = Table(server, 2, seed=3)
            ana, bo = table.players
            acked = []
            assert say(ana, "hello", "c0") == "ack"
            acked.append("hello")
            db_proxy.run(db_proxy.proxy.shut())
            assert say(ana, "from the file", "c1") == "ack"  # the fallback file keeps it
            acked.append("from the file")
            ballast = fill(disk, leave=0)
            refused: list[str] = []
            for i in range(200):  # the file's last page fills up first
                text = f"message {i} " + "x" * 150
                answer = say(ana, text, f"m{i}")
                if answer == "ack":
                    acked.append(text)
                else:
                    assert answer == "unavailable"
                    refused.append(text)
                    if len(refused) == 3:
                        break
            assert len(refused) == 3
            os.unlink(ballast)
            ballast = None
            assert say(ana, "space again", "c2") == "ack"
            acked.append("space again")
            heard = heard_until(bo, "space again")
            assert heard == acked[-len(heard):] and not set(refused) & set(heard)

            server.kill()
            table.close()
            db_proxy.run(db_proxy.proxy.open())
            server.start()  # copies the fallback file in, then restores the room
            back = Player(server.ws(table.code), table.tokens[1])
            recent = back.recv()
            while recent["type"] != "chat":
                recent = back.recv()
            assert [m["text"] for m in recent["messages"]] == acked[-50:]
            back.close()
        finally:
            if ballast is not None and ballast.exists():
                os.unlink(ballast)
            server.stop()

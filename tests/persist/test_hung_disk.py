"""The fallback file's disk hangs (a real fsfreeze of a loop-mounted ext4) while the
database is down (issue 25.18): each action is answered `unavailable` within a bound
instead of waiting as long as the disk hangs, and a refused action never turns up later
(the abandoned append is cut off again once the disk answers): after a restart the
journal holds exactly the acknowledged actions."""

from __future__ import annotations

import time
from pathlib import Path

from db.conftest import PG_URL
from db.disk import freezable_disk, frozen
from sqlalchemy.engine import make_url

from .live import Server, Table, replay, seat_views
from .test_full_disk import act_or_refusal, db_proxy  # noqa: F401 (a fixture)
from .test_outage import ProxyThread, journal_rows

SEED, PLAYERS = 5, 2


def test_a_hung_fallback_disk_refuses_within_a_bound_and_invents_nothing(
    db_proxy: ProxyThread, tmp_path: Path  # noqa: F811
) -> None:
    with freezable_disk(tmp_path / "disk") as disk:
        fallback = disk / "journal-fallback.jsonl"
        via_proxy = make_url(PG_URL).set(port=db_proxy.proxy.port).render_as_string(False)
        server = Server({
            "DATABASE_URL": via_proxy, "TEST_FIXED_SEED": str(SEED), "BOT_WORKERS": "0",
            "JOURNAL_FALLBACK_PATH": str(fallback), "DB_TIMEOUT": "1",
        })
        server.start()
        try:
            table = Table(server, PLAYERS, seed=9)
            table.play(3)
            db_proxy.run(db_proxy.proxy.shut())
            table.play(2)  # acknowledged from the fallback file
            kept = fallback.read_bytes()
            with frozen(disk):
                for _ in range(2):
                    seat, action = table.choose()
                    asked = time.monotonic()
                    assert act_or_refusal(table.players[seat], action) == "unavailable"
                    assert time.monotonic() - asked < 8  # DB_TIMEOUT is 1 s; the hang is not
                time.sleep(1)
            time.sleep(1)  # the abandoned append ends and cuts its line off again
            assert fallback.read_bytes() == kept
            table.play(2)  # the disk answers again: acknowledged from the fallback file
            server.kill()
            table.close()

            db_proxy.run(db_proxy.proxy.open())
            server.start()  # copies the fallback file in, then restores the rooms
            code = table.code.replace("-", "")
            assert [(seat, action) for _, seat, action in journal_rows(code)] == table.acked
            table.connect(server)
            assert [p.game() for p in table.players] == seat_views(
                replay(SEED, PLAYERS, table.acked))
            table.close()
        finally:
            server.stop()

"""Issue 30 in cluster mode: a turn-based room's "your turn" e-mail goes out exactly once
when its owner dies between the move and the send. The mail is in the outbox (the SMTP
server is down), the owner is SIGKILLed, the other instance takes the room over and sends
it once the SMTP server is back; the dead owner restarted sends nothing again."""

from __future__ import annotations

import signal
import time
from collections.abc import Callable

import httpx

from tests.notify.smtp import SmtpServer
from tests.notify.tables import turn_based_table
from tests.persist.live import Player

from .conftest import At
from .harness import Cluster

ADDRESS = "bo@example.org"


def backlog(url: str) -> int:
    return int(httpx.get(f"{url}/healthz", timeout=5).json()["mail"]["backlog"])


def test_a_failover_between_the_move_and_the_send_mails_once(
    cluster: Callable[..., Cluster], smtp: SmtpServer
) -> None:
    c = cluster(2, settings={k: str(v) for k, v in smtp.settings().items()})
    i1, i2 = c.instances["i1"], c.instances["i2"]
    api = httpx.Client(base_url=i1.url, timeout=10)
    try:
        code, tokens = turn_based_table(api, smtp, ADDRESS)

        smtp.stop()  # the turn mail cannot go out now
        ana = Player(At(i1.url).ws(code), tokens[0])
        while ana.game()["current"] == 0:
            ana.act(ana.game()["legal"][-1])
        ana.close()
        deadline = time.monotonic() + 15
        while backlog(i1.url) < 1:  # written to the outbox, not sent
            assert time.monotonic() < deadline, "the turn mail never reached the outbox"
            time.sleep(0.05)
        c.kill("i1", signal.SIGKILL)

        smtp.start()
        # i2 takes the room over once i1's lease ran out (asked for it here), and the mail
        # waiting in the outbox goes out, once.
        bo = Player(At(i2.url).ws(code), tokens[1])
        assert bo.game()["current"] == 1
        bo.close()
        assert len(smtp.wait_for(1, timeout=30, kind="turn")) == 1
        c.restart("i1")
        time.sleep(1.5)  # both instances' workers have looked at the outbox again
        assert len(smtp.wait_for(2, timeout=0.5, kind="turn")) == 1
        assert backlog(i2.url) == 0
    finally:
        api.close()

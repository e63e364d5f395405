"""Nobody has to open the table to learn that a turn-based seat is late (issue 41.11): when
the player to act runs out of time and bank, each other subscribed player gets one e-mail
saying so, with the link to their own seat, where the choice (a stand-in for that turn, or
the end of the game) is offered. One per lateness, also across restarts: the mail is
keyed on the room, the journal seq that began the late turn, the late seat and the
recipient's seat, as a turn's mail is."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from fastapi.testclient import TestClient

from server.main import create_app
from server.rooms.timeouts import ClockKeeper
from tests.clocks import FakeClock

from .smtp import SmtpServer, body, code_in

DAY = 86400
NAMES = ("Ana", "Bo", "Cy")
ADDRESSES = ["ana@example.org", "bo@example.org", "cy@example.org"]


def late_mails(smtp: SmtpServer) -> list[Any]:
    return [m for m in smtp.received() if "ran out of time" in str(m["Subject"])]


def wait_for_late(smtp: SmtpServer, count: int, timeout: float = 10.0) -> list[Any]:
    deadline = time.monotonic() + timeout
    while len(found := late_mails(smtp)) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    return found


def a_few_passes(client: TestClient) -> None:
    for _ in range(3):
        client.app.state.mail.wake()  # type: ignore[attr-defined]
        time.sleep(0.2)


def three_at_a_table(client: TestClient, smtp: SmtpServer) -> tuple[str, list[str]]:
    """Ana, Bo and Cy have confirmed addresses; nobody is at the table."""
    r = client.post("/api/rooms", json={"players": 3, "mode": "turn_based",
                                         "starting_player": 0,
                                         "clock": {"turn": DAY, "bank": 3 * DAY}})
    code, host = r.json()["code"], r.json()["host_token"]
    tokens = [client.post(f"/api/rooms/{code}/join", json={"name": n}).json()["seat_token"]
              for n in NAMES]
    for seat, address in enumerate(ADDRESSES):
        url = f"/api/rooms/{code}/email"
        assert client.post(url, json={"token": tokens[seat], "address": address}).is_success
        sent = code_in(smtp.wait_for(seat + 1, kind="code")[seat])
        assert client.post(f"{url}/confirm", json={"token": tokens[seat], "code": sent}
                           ).json()["state"] == "confirmed"
    assert client.post(f"/api/rooms/{code}/start", json={"token": host}).is_success
    assert len(smtp.wait_for(4)) == 4  # three codes, and the first player's turn
    return code, tokens


def time_runs_out(client: TestClient, clock: FakeClock, code: str) -> int:
    """The seat to act lets a day's turn and three days of bank go by: it is late."""
    clock.advance(4 * DAY)
    keeper = ClockKeeper(client.app.state.rooms, "greedy")  # type: ignore[attr-defined]
    client.portal.call(keeper.check)  # type: ignore[union-attr]
    late = client.get(f"/api/rooms/{code}").json()["clock"]
    assert late["late"]
    return int(late["seat"])


def test_each_other_player_hears_once_that_a_seat_is_late(
        make_settings: Callable[..., Any], smtp: SmtpServer, fake_clock: FakeClock) -> None:
    settings = make_settings(BOT_WORKERS=0, **smtp.settings())

    @contextmanager
    def running(clock: FakeClock) -> Iterator[TestClient]:
        with TestClient(create_app(settings, clock=clock)) as client:
            yield client

    with running(fake_clock) as client:
        code, tokens = three_at_a_table(client, smtp)
        smtp.stop()  # the mails wait in the outbox over a restart
        late = time_runs_out(client, fake_clock, code)
        others = [a for seat, a in enumerate(ADDRESSES) if seat != late]
        deadline = time.monotonic() + 10
        while client.get("/healthz").json()["mail"] != {"backlog": 2, "smtp": "failing"}:
            assert time.monotonic() < deadline, client.get("/healthz").json()
            time.sleep(0.05)

    smtp.start()
    clock = FakeClock()
    with running(clock) as client:  # restarted: the room is late still, its mails waiting
        assert client.get(f"/api/rooms/{code}").json()["clock"]["late"]
        # The first app's wall ran four days ahead with its clock; this one's starts from
        # the real time again: moved as far, and past the failed try's backoff.
        clock.advance(4 * DAY + 60)
        client.app.state.mail.wake()  # type: ignore[attr-defined]
        mails = wait_for_late(smtp, 2)
        a_few_passes(client)
        assert sorted(str(m["To"]) for m in late_mails(smtp)) == others
        for mail in mails:
            seat = ADDRESSES.index(str(mail["To"]))
            assert NAMES[late] in str(mail["Subject"]) and code in str(mail["Subject"])
            text = body(mail)
            assert f"http://play.example/r/{code}#seat={tokens[seat]}" in text
            assert "a bot" in text and "end the game" in text

    with running(FakeClock()) as client:  # and again: nothing more
        a_few_passes(client)
        assert len(late_mails(smtp)) == 2
        # The choice the mail offers, made at the table: the stand-in plays Ana's turn.
        r = client.post(f"/api/rooms/{code}/late",
                        json={"token": tokens[(late + 1) % 3], "choice": "stand_in"})
        assert r.status_code == 200, r.text

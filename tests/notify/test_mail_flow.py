"""Turn-based play by e-mail, in-process with a real SMTP server and an injected clock: a
player adds an address and confirms it with the code the SMTP server received; when it
becomes their turn they get exactly one e-mail with a link to their seat and a one-click
unsubscribe link; two days pass and the room is still there; bad input is refused with
coded errors; an unreachable SMTP server delays the mail but never a move."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from prometheus_client import generate_latest

from server.main import create_app
from server.rooms.timeouts import ClockKeeper
from tests.clocks import FakeClock

from .smtp import SmtpServer, body, code_in, link_in

DAY = 86400
ADDRESS = "bo@example.org"


@pytest.fixture
def app_client(make_settings: Callable[..., Any], smtp: SmtpServer,
               fake_clock: FakeClock) -> Iterator[TestClient]:
    settings = make_settings(BOT_WORKERS=0, **smtp.settings())
    with TestClient(create_app(settings, clock=fake_clock)) as client:
        yield client


def new_table(client: TestClient, start: bool = True) -> tuple[str, list[str]]:
    r = client.post("/api/rooms", json={"players": 2, "mode": "turn_based",
                                         "starting_player": 0,
                                         "clock": {"turn": DAY, "bank": 3 * DAY}})
    assert r.status_code == 201, r.text
    code, host = r.json()["code"], r.json()["host_token"]
    tokens = [client.post(f"/api/rooms/{code}/join", json={"name": name}).json()["seat_token"]
              for name in ("Ana", "Bo")]
    if start:
        assert client.post(f"/api/rooms/{code}/start", json={"token": host}).status_code == 200
    else:
        tokens.append(host)
    return code, tokens


def confirm(client: TestClient, smtp: SmtpServer, code: str, token: str,
            address: str = ADDRESS, codes_before: int = 0) -> None:
    r = client.post(f"/api/rooms/{code}/email", json={"token": token, "address": address})
    assert r.status_code == 200, r.text
    assert r.json()["state"] == "pending" and address not in r.text  # masked
    mail = smtp.wait_for(codes_before + 1, kind="code")[-1]
    assert mail["To"] == address
    r = client.post(f"/api/rooms/{code}/email/confirm",
                    json={"token": token, "code": code_in(mail)})
    assert r.status_code == 200 and r.json()["state"] == "confirmed", r.text


def play_until_turn_of(client: TestClient, code: str, seat: int) -> None:
    """Seat 0 (nobody connected) plays its last legal action until `seat` is to act."""
    room = client.app.state.rooms.get(code)  # type: ignore[attr-defined]
    while room.game.current != seat:
        actor = room.game.current
        action = room.view(actor)["game"]["legal"][-1]
        client.portal.call(room.act, actor, action, room.v)  # type: ignore[union-attr]


def turn_mails(smtp: SmtpServer) -> list[Any]:
    return [m for m in smtp.received() if "turn" in str(m["Subject"])]


def test_a_confirmed_seat_gets_one_mail_per_turn(app_client: TestClient, smtp: SmtpServer,
                                                 fake_clock: FakeClock) -> None:
    client = app_client
    code, tokens = new_table(client)
    confirm(client, smtp, code, tokens[1])
    play_until_turn_of(client, code, 1)
    mails = smtp.wait_for(1, kind="turn")
    assert len(mails) == 1
    mail = mails[0]
    assert mail["To"] == ADDRESS and code in str(mail["Subject"])
    assert f"http://play.example/r/{code}#seat={tokens[1]}" in body(mail)
    assert str(mail["List-Unsubscribe"]).strip().startswith("<http://play.example/unsubscribe/")
    # More passes of the worker, more wake-ups: still one mail for this turn.
    for _ in range(3):
        client.app.state.mail.wake()  # type: ignore[attr-defined]
        time.sleep(0.1)
    assert len(smtp.wait_for(2, timeout=0.5, kind="turn")) == 1

    # Two days later: the room is kept (no idle expiry while a turn-based game is on), and
    # the lobby's API says it is Bo's turn with a day of clock left.
    fake_clock.advance(2 * DAY)
    manager = client.app.state.rooms  # type: ignore[attr-defined]
    assert client.portal.call(manager.sweep) == []  # type: ignore[union-attr]
    r = client.post("/api/turns", json={"seats": [{"code": code, "token": tokens[1]},
                                                   {"code": code, "token": tokens[0]},
                                                   {"code": "ZZZZZZZZ", "token": "x"}]})
    bo, ana, gone = r.json()["seats"]
    assert bo["your_turn"] and not ana["your_turn"] and gone["status"] == "gone"
    assert bo["left_ms"] == 2 * DAY * 1000
    for text in (r.text, client.get(f"/api/rooms/{code}").text,
                 client.get(f"/api/rooms/{code}/events").text):
        assert ADDRESS not in text and "seed" not in text and "deck" not in text

    # Bo plays his turn; it is Ana's (no address): no mail. Then Bo's again: one more.
    play_until_turn_of(client, code, 0)
    play_until_turn_of(client, code, 1)
    assert len(smtp.wait_for(2, kind="turn")) == 2

    # One click (the POST) unsubscribes; a link for another address is refused.
    link = link_in(mail, "http://play.example/unsubscribe/").removeprefix("http://play.example")
    row, mac = link.rsplit("/", 1)[1].split(".")
    forged = client.get(f"/unsubscribe/{int(row) + 1}.{mac}")
    assert forged.status_code == 403 and forged.json()["error"]["code"] == "unsubscribe_invalid"
    assert client.get(link).status_code == 200  # opened (a link scanner): nothing changes
    assert client.post(f"/api/rooms/{code}/email/status",
                       json={"token": tokens[1]}).json()["state"] == "confirmed"
    assert client.post(link, data={"List-Unsubscribe": "One-Click"}).status_code == 200
    play_until_turn_of(client, code, 0)
    play_until_turn_of(client, code, 1)
    assert len(smtp.wait_for(3, timeout=1.0, kind="turn")) == 2  # none after unsubscribing


def test_bad_input_gets_coded_errors(app_client: TestClient, smtp: SmtpServer,
                                     fake_clock: FakeClock) -> None:
    client = app_client
    code, tokens = new_table(client)
    url = f"/api/rooms/{code}/email"

    def error(r: httpx.Response) -> tuple[int, str]:
        return r.status_code, r.json()["error"]["code"]

    for bad in ("not an address", "a@b", "a@@b.org", "a b@c.org", "x" * 250 + "@ex.org"):
        assert error(client.post(url, json={"token": tokens[1], "address": bad})) == (
            422, "address_invalid"), bad
    assert error(client.post(url, json={"token": "nobody", "address": ADDRESS})) == (
        403, "forbidden")
    assert error(client.post(f"{url}/confirm", json={"token": tokens[1], "code": "123456"})
                 ) == (409, "code_expired")  # none sent yet
    assert client.post(url, json={"token": tokens[1], "address": ADDRESS}).status_code == 200
    sent = code_in(smtp.wait_for(1, kind="code")[0])
    # Send again at once: too soon. After a minute: a new code; the old one is void.
    assert error(client.post(url, json={"token": tokens[1], "address": ADDRESS})) == (
        429, "resend_slow")
    fake_clock.advance(61)
    assert client.post(url, json={"token": tokens[1], "address": ADDRESS}).status_code == 200
    second = code_in(smtp.wait_for(2, kind="code")[1])
    if sent != second:
        assert error(client.post(f"{url}/confirm", json={"token": tokens[1], "code": sent})
                     ) == (422, "code_wrong")
    # Guessing: five tries per code, then it is gone.
    wrong = "000000" if second != "000000" else "111111"
    for _ in range(4 if sent != second else 5):
        r = client.post(f"{url}/confirm", json={"token": tokens[1], "code": wrong})
        assert error(r) == (422, "code_wrong")
    assert error(client.post(f"{url}/confirm", json={"token": tokens[1], "code": second})
                 ) == (409, "code_expired")
    # A flood of "send again": at most 5 codes a day for one seat.
    for _ in range(3):
        fake_clock.advance(61)
        assert client.post(url, json={"token": tokens[1], "address": ADDRESS}).status_code == 200
    fake_clock.advance(61)
    assert error(client.post(url, json={"token": tokens[1], "address": ADDRESS})) == (
        429, "resend_slow")
    # A code runs out after 15 minutes; a used code cannot be used again.
    fake_clock.advance(DAY)
    assert client.post(url, json={"token": tokens[1], "address": ADDRESS}).status_code == 200
    fresh = code_in(smtp.wait_for(6, kind="code")[-1])
    fake_clock.advance(16 * 60)
    assert error(client.post(f"{url}/confirm", json={"token": tokens[1], "code": fresh})
                 ) == (409, "code_expired")
    fake_clock.advance(61)
    assert client.post(url, json={"token": tokens[1], "address": ADDRESS}).status_code == 200
    last = code_in(smtp.wait_for(7, kind="code")[-1])
    ok = client.post(f"{url}/confirm", json={"token": tokens[1], "code": last})
    assert ok.status_code == 200
    assert error(client.post(f"{url}/confirm", json={"token": tokens[1], "code": last})
                 ) == (409, "code_expired")
    # Nothing about the address reaches the other seat or the room.
    status = client.post(f"{url}/status", json={"token": tokens[0]}).json()
    assert status == {"state": "none"}
    assert ADDRESS not in json.dumps(client.get(f"/api/rooms/{code}").json())
    # A real-time room takes no address.
    r = client.post("/api/rooms", json={"players": 2})
    rt = r.json()["code"]
    tok = client.post(f"/api/rooms/{rt}/join", json={"name": "X"}).json()["seat_token"]
    assert error(client.post(f"/api/rooms/{rt}/email", json={"token": tok, "address": ADDRESS})
                 ) == (409, "mail_off")


def test_smtp_down_delays_mail_but_never_a_move(app_client: TestClient, smtp: SmtpServer,
                                               fake_clock: FakeClock) -> None:
    client = app_client
    code, tokens = new_table(client)
    confirm(client, smtp, code, tokens[1])
    smtp.stop()
    started = time.monotonic()
    play_until_turn_of(client, code, 1)
    assert time.monotonic() - started < 2  # the moves did not wait for the mail
    deadline = time.monotonic() + 10
    while client.get("/healthz").json()["mail"] != {"backlog": 1, "smtp": "failing"}:
        assert time.monotonic() < deadline, client.get("/healthz").json()
        time.sleep(0.05)
    assert smtp.received() and len(turn_mails(smtp)) == 0
    scraped = generate_latest(client.app.state.metrics.registry).decode()  # type: ignore[attr-defined]
    assert "coffee_rush_mail_outbox 1.0" in scraped
    smtp.start()  # back up: the retry comes after its backoff (on the injected clock)
    fake_clock.advance(60)
    client.app.state.mail.wake()  # type: ignore[attr-defined]
    assert len(smtp.wait_for(1, kind="turn")) == 1
    deadline = time.monotonic() + 10
    while client.get("/healthz").json()["mail"] != {"backlog": 0, "smtp": "ok"}:
        assert time.monotonic() < deadline
        time.sleep(0.05)


def test_a_late_game_ended_as_abandoned_is_kept_and_its_addresses_forgotten(
        app_client: TestClient, smtp: SmtpServer, fake_clock: FakeClock) -> None:
    """Time and bank gone (in the table, through HTTP): no bot by itself; another player
    ends the game, which is stored with end_reason "abandoned"; the addresses of a game that
    is over (and the seat link kept with them) are then deleted."""
    client = app_client
    code, tokens = new_table(client)
    confirm(client, smtp, code, tokens[1])
    room = client.app.state.rooms.get(code)  # type: ignore[attr-defined]
    late, other = room.game.current, 1 - room.game.current
    # The other player pauses their clock once (HTTP), not twice.
    away = f"/api/rooms/{code}/away"
    assert client.post(away, json={"token": tokens[other], "hours": 24}).status_code == 200
    r = client.post(away, json={"token": tokens[other], "hours": 24})
    assert (r.status_code, r.json()["error"]["code"]) == (409, "away_used")
    r = client.post(away, json={"token": tokens[late], "hours": 169})
    assert (r.status_code, r.json()["error"]["code"]) == (422, "malformed")
    mine = client.post(f"/api/rooms/{code}/turn", json={"token": tokens[late]}).json()
    assert mine["your_turn"] and mine["left_ms"] == 4 * DAY * 1000
    fake_clock.advance(4 * DAY)
    keeper = ClockKeeper(client.app.state.rooms, "greedy")  # type: ignore[attr-defined]
    client.portal.call(keeper.check)  # type: ignore[union-attr]
    assert client.get(f"/api/rooms/{code}").json()["clock"]["late"]
    r = client.post(f"/api/rooms/{code}/late", json={"token": tokens[late], "choice": "abandon"})
    assert r.status_code == 403
    r = client.post(f"/api/rooms/{code}/late", json={"token": tokens[other], "choice": "abandon"})
    assert r.status_code == 200, r.text
    assert client.get(f"/api/rooms/{code}").status_code == 404
    deadline = time.monotonic() + 10
    while not (games := client.get("/api/games").json()["items"]):
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert games[0]["end_reason"] == "abandoned" and games[0]["abandoned"]
    worker = client.app.state.mail  # type: ignore[attr-defined]
    # Forgotten by this clean-up, or by the worker's own one already (its clock moved on
    # four days with the room's).
    assert client.portal.call(worker.cleanup) in (0, 1)  # type: ignore[union-attr]
    book = client.app.state.addresses  # type: ignore[attr-defined]
    assert client.portal.call(book.status, room.code, 1) == {"state": "none"}  # type: ignore[union-attr]


def test_an_address_follows_its_player_not_the_seat(app_client: TestClient, smtp: SmtpServer,
                                                    fake_clock: FakeClock) -> None:
    """Bo confirms an address, leaves; Cy takes the seat: Cy's turns mail nobody. And one
    address gets at most 5 codes a day, whichever seats ask."""
    client = app_client
    r = client.post("/api/rooms", json={"players": 2, "mode": "turn_based",
                                         "starting_player": 0})
    code, host = r.json()["code"], r.json()["host_token"]
    client.post(f"/api/rooms/{code}/join", json={"name": "Ana"})
    bo = client.post(f"/api/rooms/{code}/join", json={"name": "Bo"}).json()["seat_token"]
    confirm(client, smtp, code, bo)
    assert client.post(f"/api/rooms/{code}/leave", json={"seat_token": bo}).status_code == 200
    client.post(f"/api/rooms/{code}/join", json={"name": "Cy", "seat": 1})
    assert client.post(f"/api/rooms/{code}/start", json={"token": host}).status_code == 200
    play_until_turn_of(client, code, 1)
    client.app.state.mail.wake()  # type: ignore[attr-defined]
    assert smtp.wait_for(1, timeout=1.0, kind="turn") == []

    sent = 0
    while True:
        table, tokens = new_table(client)
        for token in tokens:
            r = client.post(f"/api/rooms/{table}/email",
                            json={"token": token, "address": "flood@example.org"})
            if r.status_code != 200:
                assert (r.status_code, r.json()["error"]["code"]) == (429, "resend_slow")
                assert sent == 5
                return
            sent += 1


def test_a_daily_digest_gathers_the_turns_of_one_address(
        app_client: TestClient, smtp: SmtpServer, fake_clock: FakeClock) -> None:
    client = app_client
    tables = [new_table(client, start=False) for _ in range(2)]
    for n, (code, tokens) in enumerate(tables):  # set up while waiting, then started
        confirm(client, smtp, code, tokens[1], codes_before=n)
        r = client.post(f"/api/rooms/{code}/email/digest",
                        json={"token": tokens[1], "digest": True})
        assert r.json()["digest"] is True
        assert client.post(f"/api/rooms/{code}/start", json={"token": tokens[2]}).is_success
    (first, first_tokens), (second, second_tokens) = tables
    play_until_turn_of(client, first, 1)
    assert "1" in str(smtp.wait_for(1, kind="turn")[0]["Subject"])  # the first: at once
    # More turns within the day wait for the next digest, which gathers them.
    play_until_turn_of(client, second, 1)
    play_until_turn_of(client, first, 0)
    play_until_turn_of(client, first, 1)
    client.app.state.mail.wake()  # type: ignore[attr-defined]
    assert len(smtp.wait_for(2, timeout=1.0, kind="turn")) == 1
    fake_clock.advance(25 * 3600)
    client.app.state.mail.wake()  # type: ignore[attr-defined]
    digest = smtp.wait_for(2, kind="turn")
    assert len(digest) == 2 and "2" in str(digest[1]["Subject"])
    for code, tokens in tables:
        assert f"{code}: http://play.example/r/{code}#seat={tokens[1]}" in body(digest[1])
    code, tokens = first, first_tokens
    # Digest off: the turns waiting go out one by one at once.
    play_until_turn_of(client, code, 0)
    play_until_turn_of(client, code, 1)
    client.app.state.mail.wake()  # type: ignore[attr-defined]
    assert len(smtp.wait_for(3, timeout=1.0, kind="turn")) == 2
    r = client.post(f"/api/rooms/{code}/email/digest", json={"token": tokens[1], "digest": False})
    assert r.json()["digest"] is False
    assert len(smtp.wait_for(3, kind="turn")) == 3
    r = client.post(f"/api/rooms/{code}/email/digest", json={"token": tokens[0], "digest": True})
    assert r.status_code == 409 and r.json()["error"]["code"] == "no_address"

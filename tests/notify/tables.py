"""A turn-based table made over HTTP: two players, Ana (seat 1, to play first) and Bo, whose
seat has a confirmed address (the code read from the SMTP server)."""

from __future__ import annotations

import httpx

from .smtp import SmtpServer, code_in

DAY = 86400


def turn_based_table(api: httpx.Client, smtp: SmtpServer, address: str) -> tuple[str, list[str]]:
    """The room code and the two seat tokens of a started game (a day a move, three in the
    bank)."""
    created = api.post("/api/rooms", json={
        "players": 2, "mode": "turn_based", "starting_player": 0,
        "clock": {"turn": DAY, "bank": 3 * DAY}}).json()
    code = created["code"]
    tokens = [api.post(f"/api/rooms/{code}/join", json={"name": n}).json()["seat_token"]
              for n in ("Ana", "Bo")]
    assert api.post(f"/api/rooms/{code}/start", json={"token": created["host_token"]}).is_success
    assert api.post(f"/api/rooms/{code}/email",
                    json={"token": tokens[1], "address": address}).is_success
    sent = code_in(smtp.wait_for(1, kind="code")[0])
    assert api.post(f"/api/rooms/{code}/email/confirm",
                    json={"token": tokens[1], "code": sent}).is_success
    return code, tokens

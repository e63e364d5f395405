"""A password reset, and "sign out everywhere", end the account's other sessions and the
lobby sockets they opened (as disabling an account drops its sockets): a real server
(`python -m server`) on SQLite and PostgreSQL, a real SMTP server, real websockets."""

from __future__ import annotations

import json
import re
from contextlib import ExitStack
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.persist.live import Server

from .live import PUBLIC_URL, mail_server
from .smtp import SmtpServer, code_in

__all__ = ["mail_server"]  # the fixture, for pytest
TOKEN = re.compile(re.escape(PUBLIC_URL) + r"/account/reset#token=([A-Za-z0-9_-]+)")


def browser(server: Server, address: str) -> httpx.Client:
    return httpx.Client(base_url=server.http, timeout=30,
                        headers={"x-forwarded-for": address, "origin": server.http})


def signed_in(response: httpx.Response) -> dict[str, str]:
    """The session cookie a sign-in set, as the header a browser sends (it is Secure: the
    site's PUBLIC_URL is https, so a cookie jar would keep it off this plain-HTTP test)."""
    assert response.status_code in (200, 201), response.text
    return {"cookie": f"cr_session={response.cookies['cr_session']}"}


def lobby(server: Server, cookie: dict[str, str], sockets: ExitStack) -> ClientConnection:
    ws = sockets.enter_context(connect(
        server.http.replace("http", "ws", 1) + "/lobby/socket", origin=server.http,
        additional_headers=cookie, open_timeout=10))  # type: ignore[arg-type]
    assert json.loads(ws.recv(timeout=10))["type"] == "lobby"
    return ws


def told_and_closed(ws: ClientConnection) -> dict[str, Any]:
    """The frames until the socket closes: the last one it was told."""
    last: dict[str, Any] = {}
    try:
        while True:
            last = json.loads(ws.recv(timeout=10))
    except ConnectionClosed:
        return last


def test_a_reset_and_sign_out_everywhere_close_the_other_sessions_sockets(
        mail_server: Server, smtp: SmtpServer) -> None:
    with (browser(mail_server, "10.3.0.1") as home, browser(mail_server, "10.3.0.2") as phone,
          browser(mail_server, "10.3.0.3") as cafe, ExitStack() as sockets):
        me = signed_in(home.post("/api/accounts", json={"name": "Gus", "password": "old one!"}))
        assert home.post("/api/me/email", headers=me,
                         json={"address": "gus@example.org"}).status_code == 200
        code = code_in(smtp.wait_for(1)[-1])
        assert home.post("/api/me/email/confirm", headers=me,
                         json={"code": code}).json()["state"] == "confirmed"
        on_phone = signed_in(phone.post("/api/sign-in/password",
                                        json={"name": "Gus", "password": "old one!"}))
        phone_socket = lobby(mail_server, on_phone, sockets)

        assert cafe.post("/api/password/forgot",
                         json={"address": "gus@example.org"}).status_code == 202
        mails = smtp.wait_for(2)
        assert len(mails) == 2, [m["Subject"] for m in mails]
        found = TOKEN.search(str(mails[-1].get_content()))
        assert found, mails[-1].get_content()
        at_cafe = signed_in(cafe.post("/api/password/reset", json={
            "token": found.group(1), "password": "new one!"}))

        assert told_and_closed(phone_socket)["code"] == "not_signed_in"
        for old in ((home, me), (phone, on_phone)):
            assert old[0].get("/api/me", headers=old[1]).status_code == 401

        # Sign out everywhere, from the café: the phone, signed in again, is out again.
        on_phone = signed_in(phone.post("/api/sign-in/password",
                                        json={"name": "Gus", "password": "new one!"}))
        phone_socket = lobby(mail_server, on_phone, sockets)
        sessions = cafe.get("/api/me/sessions", headers=at_cafe).json()["sessions"]
        assert [s["address"] for s in sessions if s["current"]] == ["10.3.0.3"]
        assert {s["address"] for s in sessions} == {"10.3.0.2", "10.3.0.3"}
        assert cafe.post("/api/me/sessions/end-all", headers=at_cafe, json={}).status_code == 200
        assert told_and_closed(phone_socket)["code"] == "not_signed_in"
        for now in ((cafe, at_cafe), (phone, on_phone)):
            assert now[0].get("/api/me", headers=now[1]).status_code == 401

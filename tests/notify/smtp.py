"""A real SMTP server in this process (aiosmtpd's Controller, on its own thread) that keeps
what it receives; it can be stopped and started again on the same port (an outage)."""

from __future__ import annotations

import email
import email.policy
import re
import threading
import time
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller

from tests.serving import free_port


class Inbox:
    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.raw: list[bytes] = []  # as they came over the wire
        self.lock = threading.Lock()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self.lock:
            self.messages.append(message)  # type: ignore[arg-type]
            self.raw.append(envelope.content)
        return "250 OK"


class SmtpServer:
    def __init__(self) -> None:
        self.port = free_port()
        self.inbox = Inbox()
        self.controller: Controller | None = None

    def start(self) -> None:
        self.controller = Controller(self.inbox, hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None

    def received(self) -> list[EmailMessage]:
        with self.inbox.lock:
            return list(self.inbox.messages)

    def received_raw(self) -> list[bytes]:
        with self.inbox.lock:
            return list(self.inbox.raw)

    def wait_for(self, count: int, timeout: float = 10.0,
                 kind: str | None = None) -> list[EmailMessage]:
        """Until `count` messages (of `kind`: "code" or "turn") have arrived."""
        deadline = time.monotonic() + timeout
        while True:
            found = [m for m in self.received() if kind is None or kind_of(m) == kind]
            if len(found) >= count or time.monotonic() > deadline:
                return found
            time.sleep(0.05)

    def settings(self) -> dict[str, Any]:
        return {"SMTP_HOST": "127.0.0.1", "SMTP_PORT": self.port, "SMTP_SECURITY": "none",
                "MAIL_FROM": "Coffee Rush <rush@example.org>",
                "PUBLIC_URL": "http://play.example"}


def kind_of(message: EmailMessage) -> str:
    """A code's subject carries 6 digits; a turn's, the room code (letters and digits)."""
    return "code" if re.search(r"\b\d{6}\b", str(message["Subject"])) else "turn"


def body(message: EmailMessage) -> str:
    return str(message.get_content())


def code_in(message: EmailMessage) -> str:
    found = re.search(r"\b(\d{6})\b", str(message["Subject"]))
    assert found, message["Subject"]
    return found.group(1)


def link_in(message: EmailMessage, prefix: str) -> str:
    found = re.search(re.escape(prefix) + r"\S+", body(message))
    assert found, body(message)
    return found.group(0)

"""The SMTP client: one message at a time to the host's SMTP server (aiosmtplib).

Every message says how to unsubscribe as RFC 8058 has it: `List-Unsubscribe` with the
link (one `<https://...>` in plain ASCII, on one line: mail clients read it as it is, and
the standard email policy would fold a long one into RFC 2047 encoded words, which they do
not decode) and `List-Unsubscribe-Post: List-Unsubscribe=One-Click`, which tells them a
POST to that link unsubscribes at once (server/api/notify.py). It carries a `Date` (when it
is handed over) and a `Message-ID` made from its outbox key.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from email.headerregistry import BaseHeader, HeaderRegistry, UnstructuredHeader
from email.message import EmailMessage
from email.policy import SMTP, Policy
from email.utils import format_datetime, formataddr, parseaddr

import aiosmtplib

from server.config import Settings

ONE_CLICK = "List-Unsubscribe=One-Click"  # RFC 8058's List-Unsubscribe-Post, and its body


class VerbatimHeader(UnstructuredHeader, BaseHeader):
    """A header written as given, never folded nor encoded (an ASCII value shorter than a
    line, RFC 5322's 998 characters): RFC 2369's `<URL>` must reach mail clients as is."""

    def fold(self, *, policy: Policy) -> str:
        value = str(self)
        if not value.isascii() or len(self.name) + 2 + len(value) > 998 or "\n" in value:
            return super().fold(policy=policy)
        return f"{self.name}: {value}{policy.linesep}"


_HEADERS = HeaderRegistry()
_HEADERS.map_to_type("list-unsubscribe", VerbatimHeader)
POLICY = SMTP.clone(header_factory=_HEADERS)


@dataclass(frozen=True, slots=True)
class Mail:
    to: str
    subject: str
    body: str
    key: str  # the outbox key: the Message-ID is made from it, the same on every try
    unsubscribe: str | None  # the one-click unsubscribe URL (None: an account's own mail)


class Mailer:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def message(self, mail: Mail, now: datetime) -> EmailMessage:
        sender = self.settings.MAIL_FROM
        domain = parseaddr(sender)[1].rpartition("@")[2] or "localhost"
        msg = EmailMessage(policy=POLICY)
        msg["From"] = sender
        msg["To"] = formataddr(("", mail.to))
        msg["Subject"] = mail.subject
        msg["Date"] = format_datetime(now)
        msg["Message-ID"] = f"<{hashlib.sha256(mail.key.encode()).hexdigest()[:32]}@{domain}>"
        if mail.unsubscribe is not None:
            msg["List-Unsubscribe"] = f"<{mail.unsubscribe}>"
            msg["List-Unsubscribe-Post"] = ONE_CLICK
        msg["Auto-Submitted"] = "auto-generated"
        msg.set_content(mail.body)
        return msg

    async def send(self, mail: Mail, now: datetime) -> None:
        """Raises (aiosmtplib.SMTPException, OSError, TimeoutError) if it was not taken."""
        s = self.settings
        await aiosmtplib.send(
            self.message(mail, now), hostname=s.SMTP_HOST, port=s.SMTP_PORT,
            username=s.SMTP_USER or None, password=s.SMTP_PASSWORD or None,
            use_tls=s.SMTP_SECURITY == "tls", start_tls=s.SMTP_SECURITY == "starttls",
            timeout=s.SMTP_TIMEOUT,
        )

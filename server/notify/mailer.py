"""The SMTP client: one message at a time to the host's SMTP server (aiosmtplib)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formataddr, parseaddr

import aiosmtplib

from server.config import Settings


@dataclass(frozen=True, slots=True)
class Mail:
    to: str
    subject: str
    body: str
    key: str  # the outbox key: the Message-ID is made from it, the same on every try
    unsubscribe: str  # the one-click unsubscribe URL


class Mailer:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def message(self, mail: Mail) -> EmailMessage:
        sender = self.settings.MAIL_FROM
        domain = parseaddr(sender)[1].rpartition("@")[2] or "localhost"
        msg = EmailMessage()
        msg["From"] = sender
        msg["To"] = formataddr(("", mail.to))
        msg["Subject"] = mail.subject
        msg["Message-ID"] = f"<{hashlib.sha256(mail.key.encode()).hexdigest()[:32]}@{domain}>"
        # A link to open (RFC 2369); not RFC 8058's one-click POST, which the site's
        # boundary (JSON-only, same-origin POSTs) would refuse.
        msg["List-Unsubscribe"] = f"<{mail.unsubscribe}>"
        msg["Auto-Submitted"] = "auto-generated"
        msg.set_content(mail.body)
        return msg

    async def send(self, mail: Mail) -> None:
        """Raises (aiosmtplib.SMTPException, OSError, TimeoutError) if it was not taken."""
        s = self.settings
        await aiosmtplib.send(
            self.message(mail), hostname=s.SMTP_HOST, port=s.SMTP_PORT,
            username=s.SMTP_USER or None, password=s.SMTP_PASSWORD or None,
            use_tls=s.SMTP_SECURITY == "tls", start_tls=s.SMTP_SECURITY == "starttls",
            timeout=s.SMTP_TIMEOUT,
        )

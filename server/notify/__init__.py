"""E-mail for turn-based play: "it's your turn", "a player is late", through an outbox.
Reads and writes the database (server.db), reads the live rooms (server.rooms); nothing
imports it but the app.

    account_mail.py  an account's address (confirmed like a seat's) and "forgot password":
                  its one-time links mailed, the same answer whoever asks
    addresses.py  a seat's address: add it, confirm it with a 6-digit code (expiring, single
                  use, limited tries, sends rate-limited), unsubscribe links signed per address
    outbox.py     the outbox rows: written once per key, claimed by one sender at a time
                  (FOR UPDATE SKIP LOCKED on PostgreSQL), sent, or retried with backoff;
                  a digest address's turns held and gathered into one message a day
    turns.py      whose turn it is in a turn-based room, and the key of that turn; whose
                  turn is late, and the keys of the mails telling the others
    mailer.py     the SMTP client (aiosmtplib) built from the settings, and the message
    strings.py    the mail's sentences in en, th and ko
    worker.py     one task per app: puts the rooms' turns (and late seats) in the outbox,
                  makes the digests, drains it, forgets the addresses of games that are over

An address is never shown to another player, nor logged (log lines name the address row's
id), nor exported: it lives only in `seat_addresses`.
"""

from .account_mail import AccountMail
from .addresses import AddressBook, MailRefused
from .worker import MailWorker, mail_settings_ok

__all__ = ["AccountMail", "AddressBook", "MailRefused", "MailWorker", "mail_settings_ok"]

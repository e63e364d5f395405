"""Room codes: 8 characters from a 32-letter alphabet (40 bits), shown as "K7QX-PM2A"."""

from __future__ import annotations

import secrets

ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"  # no 0/O, 1/I: easy to read aloud
LENGTH = 8
_LETTERS = frozenset(ALPHABET)


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def normalize(text: str) -> str | None:
    """The canonical code for user input ("k7qx-pm2a" -> "K7QXPM2A"), or None if invalid."""
    code = text.replace("-", "").upper()
    if len(code) != LENGTH or not _LETTERS.issuperset(code):
        return None
    return code


def display(code: str) -> str:
    return f"{code[:4]}-{code[4:]}"

"""Refusals by the accounts layer: a stable code (server/error_codes.py), a sentence and
the HTTP status that fits. The API answers them in the one error shape."""

from __future__ import annotations

from server.error_codes import Refusal


class AccountError(Refusal):
    """An account request was refused; nothing changed."""


def bad_credentials() -> AccountError:
    """The same answer for an unknown name, a wrong password and a disabled account, so a
    refusal never tells which names have accounts."""
    return AccountError("bad_credentials", "that name and password do not match", 401)


def not_signed_in() -> AccountError:
    return AccountError("not_signed_in", "sign in first", 401)

"""Passwords: Argon2 through pwdlib (never hashed by hand). Only the hash is stored."""

from __future__ import annotations

from functools import cache

from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher

from .errors import AccountError

MIN_LENGTH = 8
MAX_LENGTH = 256  # Argon2 takes any length; this caps the work a request can ask for


@cache
def _hasher() -> PasswordHash:
    return PasswordHash((Argon2Hasher(),))


def check_password(password: str) -> str:
    if not MIN_LENGTH <= len(password) <= MAX_LENGTH:
        raise AccountError("password_invalid",
                           f"a password has {MIN_LENGTH} to {MAX_LENGTH} characters", 422)
    return password


def hash_password(password: str) -> str:
    return _hasher().hash(check_password(password))


def verify_password(password: str, stored: str | None) -> bool:
    """Whether `password` matches `stored`. Without a stored hash (no such account, or one
    without a password) a hash is still checked, so the answer takes as long either way."""
    if stored is None or len(password) > MAX_LENGTH:
        _hasher().verify(password[:MAX_LENGTH], _dummy())
        return False
    return _hasher().verify(password, stored)


@cache
def _dummy() -> str:
    return _hasher().hash("not anyone's password")

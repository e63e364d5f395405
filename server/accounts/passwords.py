"""Passwords: Argon2 through pwdlib (never hashed by hand). Only the hash is stored."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher

from server.config import Settings

from .errors import AccountError

MIN_LENGTH = 8
MAX_LENGTH = 256  # Argon2 takes any length; this caps the work a request can ask for


@dataclass(frozen=True)
class Cost:
    """Argon2's work for a new hash: `time` passes over `memory_kib` KiB. A stored hash is
    checked at the cost written in it, so a change applies to new passwords only."""

    time: int = 3
    memory_kib: int = 65536

    @classmethod
    def of(cls, settings: Settings) -> Cost:
        return cls(settings.PASSWORD_TIME_COST, settings.PASSWORD_MEMORY_KIB)


@cache
def _hasher(cost: Cost) -> PasswordHash:
    return PasswordHash((Argon2Hasher(time_cost=cost.time, memory_cost=cost.memory_kib),))


def check_password(password: str) -> str:
    if not MIN_LENGTH <= len(password) <= MAX_LENGTH:
        raise AccountError("password_invalid",
                           f"a password has {MIN_LENGTH} to {MAX_LENGTH} characters", 422)
    return password


def hash_password(password: str, cost: Cost = Cost()) -> str:
    return _hasher(cost).hash(check_password(password))


def verify_password(password: str, stored: str | None, cost: Cost = Cost()) -> bool:
    """Whether `password` matches `stored`. Without a stored hash (no such account, or one
    without a password) a hash made at `cost` is still checked, so the answer takes as long
    either way."""
    if stored is None or len(password) > MAX_LENGTH:
        _hasher(cost).verify(password[:MAX_LENGTH], _dummy(cost))
        return False
    return _hasher(cost).verify(password, stored)


@cache
def _dummy(cost: Cost) -> str:
    return _hasher(cost).hash("not anyone's password")

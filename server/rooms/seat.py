"""A seat at a room's table, and the seat tokens (kept only as their sha256 hashes)."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Any

from .connection import Connection
from .turnclock import AWAY_AFTER


@dataclass(slots=True)
class Seat:
    index: int
    name: str | None = None
    token_hash: str | None = None  # sha256 of the seat token; the token itself is not kept
    bot: str | None = None  # a bot level name; the bots package plays this seat
    conn: Connection | None = None
    # Room-clock time since which this player's seat has had no connection (None: a bot,
    # an empty seat, or connected). Kept by Room.commit.
    away_since: float | None = None
    stand_in: str | None = None  # a bot level playing for the absent player, until they return
    timeouts: int = 0  # turns timed out in a row (server.rooms.timeouts)
    account_id: int | None = None  # a signed-in player's account (the seat is "verified")

    @property
    def filled(self) -> bool:
        return self.token_hash is not None or self.bot is not None

    @property
    def played_by(self) -> str | None:
        """The bot level that plays this seat now, if any."""
        return self.bot or self.stand_in

    def vacate(self) -> None:
        self.name = self.token_hash = self.bot = self.stand_in = self.account_id = None
        self.timeouts = 0

    def info(self) -> dict[str, Any]:
        info = {
            "seat": self.index,
            "name": self.name,
            "connected": self.conn is not None or self.bot is not None,
            "bot": self.bot,
        }
        if self.account_id is not None:
            info["verified"] = True
        if self.stand_in is not None:
            info["stand_in"] = self.stand_in
        if self.timeouts >= AWAY_AFTER:
            info["away"] = True
        return info


# Who sits where, as Room.seating gives it: (name, token hash, bot, stand-in, account) per
# seat, and the host seat.
Seating = tuple[
    list[tuple[str | None, str | None, str | None, str | None, int | None]], int | None]


def new_token() -> str:
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    """Tokens are high-entropy secrets: a plain sha256 is enough to keep instead of them."""
    return hashlib.sha256(token.encode()).hexdigest()


def same_hash(given_hash: str, expected: str | None) -> bool:
    """Constant-time comparison of a given token's hash with a stored one."""
    return expected is not None and hmac.compare_digest(given_hash, expected)

"""Plain values passed into and returned by the store: no ORM objects leak out of server.db."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from server.rules import Action


class JournalConflict(Exception):
    """A write disagrees with what the database already holds for the same key."""


class Fenced(JournalConflict):
    """A write from an owner whose epoch is no longer the room's: another instance claimed
    the room since, so this write must not happen (and must not be acknowledged)."""


class UnknownRoom(LookupError):
    """No unfinished room has this code."""


def bot_name(level: str) -> str:
    """The name a bot seat is stored under (and known by in history pages)."""
    return f"{level} bot"


@dataclass(frozen=True, slots=True)
class SeatRecord:
    seat: int
    name: str
    bot: str | None = None  # bot level name; None for a human
    token_hash: str | None = None
    stand_in: str | None = None  # a finished game's: the bot level playing for this player
    account_id: int | None = None  # the signed-in player's account (None: a guest, a bot)


@dataclass(frozen=True, slots=True)
class NewRoom:
    code: str
    options: dict[str, Any]
    seed: int
    rules_version: int
    host_token_hash: str
    created_at: datetime
    seats: tuple[SeatRecord, ...] = ()


@dataclass(frozen=True, slots=True)
class ActionRecord:
    room_code: str
    seq: int
    seat: int | None
    action: Action
    created_at: datetime


@dataclass(frozen=True, slots=True)
class UnfinishedRoom:
    """Everything needed to rebuild a room after a restart: an unfinished one, or a
    finished one still on show (status "finished", its saved game's actions)."""

    code: str
    status: str
    options: dict[str, Any]
    seed: int
    rules_version: int
    host_token_hash: str
    created_at: datetime
    started_at: datetime | None
    seats: tuple[SeatRecord, ...]
    actions: tuple[tuple[int, int | None, Action], ...]  # (seq, seat, action) in order
    host_seat: int | None = None
    # Why a stored value could not be read (then `actions` is empty): the room cannot be
    # rebuilt and comes back closed.
    defect: str | None = None
    finished_at: datetime | None = None  # a finished room's, kept on show after a restart
    talk: tuple[dict[str, Any], ...] = ()  # room_talk rows' data (each with its "n")


@dataclass(frozen=True, slots=True)
class FinishedGame:
    room_code: str
    seed: int
    options: dict[str, Any]
    rules_version: int
    players: tuple[SeatRecord, ...]  # token_hash is ignored
    actions: tuple[tuple[int | None, Action], ...]  # (seat, action) in order
    result: dict[str, Any]  # the engine's game.result
    started_at: datetime
    ended_at: datetime
    talk: tuple[dict[str, Any], ...] = ()  # chat and timeouts, in order


@dataclass(frozen=True, slots=True)
class PlayerResult:
    seat: int
    name: str
    bot: str | None
    place: int
    winner: bool
    total: int
    orders: int
    upgrades: int
    penalties: int
    rush: int
    tiles: tuple[str, ...]
    stand_in: str | None = None  # the bot level that played for this player at the end
    profile: str | None = None  # the name of the player's live account, if they had one


@dataclass(frozen=True, slots=True)
class GameSummary:
    id: int
    room_code: str
    started_at: datetime
    ended_at: datetime
    end_reason: str | None
    turns: int
    action_count: int
    players: tuple[PlayerResult, ...]


@dataclass(frozen=True, slots=True)
class GameDetail:
    summary: GameSummary
    seed: int
    options: dict[str, Any]
    rules_version: int
    actions: tuple[tuple[int | None, Action], ...]
    result: dict[str, Any]
    talk: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True, slots=True)
class GamePage:
    items: tuple[GameSummary, ...]
    total: int
    page: int
    per_page: int

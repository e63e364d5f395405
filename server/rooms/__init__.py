"""Rooms: who sits where, who watches, versions and per-viewer diffs. Knows no rule."""

from .codes import display, normalize
from .connection import Close, Connection
from .errors import RoomError
from .events import Event
from .manager import RoomManager
from .options import RoomOptions
from .room import (
    FINISHED,
    INCOMPATIBLE,
    MOVED,
    PLAYING,
    WAITING,
    Journal,
    Listener,
    NullJournal,
    Room,
)
from .seat import Seat, hash_token
from .seating import add_bot, hand_host, join, kick, leave, stand_in, start

__all__ = [
    "FINISHED", "INCOMPATIBLE", "MOVED", "PLAYING", "WAITING", "Close", "Connection", "Event",
    "Journal",
    "Listener", "NullJournal", "Room", "RoomError", "RoomManager", "RoomOptions", "Seat",
    "add_bot", "display", "hand_host", "hash_token", "join", "kick", "leave", "normalize",
    "stand_in", "start",
]

"""Whose turn it is in a turn-based room, and the key of that turn's mail; whose turn is
late, and the keys of the mails that tell the others.

A turn's key is (room, the journal seq of the action that made it this seat's turn, seat):
the same for every action the seat plays within the turn, and for a room rebuilt from its
journal after a restart or on another instance, so the mail is written once per turn. A
late turn's mails are keyed the same way, plus the seat each one goes to: a turn is late
once at most (its clock stays stopped until it is over), so each player hears of it once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from server.rooms import PLAYING, Room
from server.rules import is_over


@dataclass(frozen=True, slots=True)
class Turn:
    room_code: str
    seq: int  # actions in the journal when the turn began (0: the first turn)
    seat: int

    @property
    def key(self) -> str:
        return f"turn:{self.room_code}:{self.seq}:{self.seat}"


@dataclass(frozen=True, slots=True)
class Lateness:
    room_code: str
    seq: int  # as Turn's: the journal seq that began the late turn
    seat: int  # the late seat

    def key(self, to: int) -> str:
        """The key of the mail to seat `to`."""
        return f"late:{self.room_code}:{self.seq}:{self.seat}:{to}"


def turn_began(actions: Sequence[tuple[int, Any]], seat: int) -> int:
    """The seq of the last action by another seat (the one that made it `seat`'s turn)."""
    for i in range(len(actions) - 1, -1, -1):
        if actions[i][0] != seat:
            return i + 1
    return 0


def waiting_turn(room: Room) -> Turn | None:
    """The turn a person should hear about: a turn-based game on, a player's seat to act
    (no bot, no stand-in) whose player is not at the table now."""
    game = room.game
    if not room.options.turn_based or room.status != PLAYING or game is None or is_over(game):
        return None
    seat = room.seats[game.current]
    if seat.token_hash is None or seat.played_by is not None or seat.conn is not None:
        return None
    return Turn(room.code, turn_began(room.actions, seat.index), seat.index)


def current_turn(room: Room) -> Turn | None:
    """The turn being played now, whoever plays it (to tell a stale mail)."""
    game = room.game
    if room.status != PLAYING or game is None or is_over(game):
        return None
    return Turn(room.code, turn_began(room.actions, game.current), game.current)


def late_turn(room: Room) -> Lateness | None:
    """A turn-based seat whose time and bank are gone, the others' choice not yet made."""
    game, clock = room.game, room.turn_clock
    if (not room.options.turn_based or room.status != PLAYING or game is None
            or is_over(game) or clock is None or not clock.late or clock.seat is None):
        return None
    return Lateness(room.code, turn_began(room.actions, clock.seat), clock.seat)

"""Who sits where: the only writers of seats and host (seating.py and timeouts.py decide)."""

from __future__ import annotations

from ..seat import Seating, hash_token, same_hash
from .state import RoomState


class Seats(RoomState):
    """A room's seats and host: who sits, who hosts, whose token opens which seat."""

    __slots__ = ()

    def seat_of(self, token: str) -> int | None:
        given, found = hash_token(token), None
        for seat in self.seats:  # no early exit: the time taken does not depend on the match
            if same_hash(given, seat.token_hash):
                found = seat.index
        return found

    def is_host(self, token: str | None) -> bool:
        if token is None:
            return False
        given = hash_token(token)
        if same_hash(given, self.host_token_hash):
            return True
        return self.host_seat is not None and same_hash(
            given, self.seats[self.host_seat].token_hash
        )

    def seating(self) -> Seating:
        """The seats and host as they are, for `restore_seating` if a change cannot be saved."""
        return ([(s.name, s.token_hash, s.bot, s.stand_in, s.account_id) for s in self.seats],
                self.host_seat)

    def restore_seating(self, before: Seating) -> None:
        seats, self.host_seat = before
        for seat, (name, token_hash, bot, stand_in, account_id) in zip(self.seats, seats,
                                                                       strict=True):
            seat.name, seat.token_hash, seat.bot, seat.stand_in = name, token_hash, bot, stand_in
            seat.account_id = account_id

    def sit(self, index: int, name: str, token_hash: str, account_id: int | None = None) -> None:
        """A player takes a free seat (signed in: with their account); the first player to
        sit is the host."""
        seat = self.seats[index]
        seat.name, seat.token_hash, seat.account_id = name, token_hash, account_id
        if self.host_seat is None:
            self.host_seat = index

    def reseat(self, index: int, token_hash: str) -> None:
        """The seat's player takes it with a new token (a signed-in player back from another
        device); the old token no longer opens it."""
        self.seats[index].token_hash = token_hash

    def unverify(self, index: int) -> None:
        """The seat's account is gone (deleted or disabled): its player plays on by the
        seat token, as a guest, no longer shown verified."""
        self.seats[index].account_id = None

    def seat_bot(self, index: int, level: str | None) -> None:
        self.seats[index].bot = level

    def vacate(self, index: int) -> None:
        """The seat is free again; if it was the host's, the first player left hosts."""
        self.seats[index].vacate()
        if self.host_seat == index:
            humans = [s.index for s in self.seats if s.token_hash is not None]
            self.host_seat = humans[0] if humans else None

    def disconnect_seat(self, index: int, reason: str) -> None:
        """Close the socket of a seat whose vacating is durable."""
        seat = self.seats[index]
        if seat.conn is not None:
            seat.conn.attached = False
            seat.conn.close(reason)
            seat.conn = None

    def set_host(self, index: int) -> None:
        self.host_seat = index

    def set_stand_in(self, index: int, level: str | None) -> None:
        """A bot level plays for the seat's player (None: the player plays again)."""
        self.seats[index].stand_in = level

    def set_timeouts(self, index: int, count: int) -> None:
        """Turns the seat's player has let time out in a row (server.rooms.timeouts)."""
        self.seats[index].timeouts = count

    def _mark_absences(self) -> None:
        """Note when each player's seat lost (or never had) its connection. A turn-based
        player is not at the table between moves: nobody counts them absent (no bot takes
        over after SEAT_GRACE; only their turn clock runs)."""
        now = None
        for seat in self.seats:
            if seat.conn is not None or seat.token_hash is None or self.options.turn_based:
                seat.away_since = None
            elif seat.away_since is None:
                now = self.clock() if now is None else now
                seat.away_since = now

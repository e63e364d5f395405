"""Lifecycle: the only writers of status, game, actions, finished_at and notice."""

from __future__ import annotations

import logging
from array import array

from server.rules import Action, is_over

from ..actionlog import ActionLog
from ..seat import hash_token, new_token
from .presence import Presences
from .state import FINISHED, INCOMPATIBLE, MOVED, PLAYING, WAITING, RoomState

log = logging.getLogger(__name__)


class Lifecycle(Presences):
    """Start, finish, restore, rematch, hand over."""

    __slots__ = ()

    def begin(self) -> None:
        """WAITING -> PLAYING: deal the game from the room's seed and options."""
        self.game, self.status = self.new_game(), PLAYING

    def unbegin(self) -> None:
        """Undo `begin` (the start could not be made durable)."""
        self.game, self.status = None, WAITING

    def finish(self) -> None:
        """PLAYING -> FINISHED: the game is over."""
        self.status, self.finished_at = FINISHED, self.clock()
        log.info("game finished in room %s", self.display_code,
                 extra={"room": self.display_code})

    def make_incompatible(self, notice: str) -> None:
        """A restored room that cannot be played here: readable, closed, `notice` says why."""
        self.status, self.notice, self.game = INCOMPATIBLE, notice, None
        self.actions, self.action_versions = ActionLog(), array("Q")

    def move_away(self) -> None:
        """Handed over to another instance (cluster mode): its viewers reconnect there."""
        self.status = MOVED
        self.close_all("moved", 1012)

    def number_versions_from(self, base: int) -> None:
        """A rebuilt room's versions restart at `base`, above any sent before (no viewer yet)."""
        self.v = base

    def restore_seat(self, index: int, name: str | None, bot: str | None,
                     token_hash: str | None, account_id: int | None = None) -> None:
        """A seat as stored (a bot seat keeps no name)."""
        seat = self.seats[index]
        seat.name = None if bot is not None else name
        seat.bot, seat.token_hash, seat.account_id = bot, token_hash, account_id

    def restore_host(self, seat: int | None) -> None:
        if seat is not None and not 0 <= seat < len(self.seats):
            raise ValueError(f"host seat {seat} of {len(self.seats)}")
        self.host_seat = seat

    def restore_game(self, status: str, actions: list[tuple[int, Action]],
                     finished_ago: float = 0.0) -> None:
        """A PLAYING or FINISHED room rebuilt from storage by replaying its actions (each is
        checked again). Raises if they do not replay, or a finished game does not end."""
        if status not in (PLAYING, FINISHED):
            raise ValueError(f"a game cannot be restored as {status!r}")
        game = self.replay(actions)
        if status == FINISHED and not is_over(game):
            raise ValueError(f"the saved game of {self.code} does not replay to its end")
        self.game, self.actions, self.status = game, ActionLog(actions), status
        self.action_versions = array("Q", bytes(8 * len(self.actions)))
        if status == FINISHED:
            self.finished_at = self.clock() - finished_ago

    def seat_players_of(self, old: RoomState) -> dict[int, str]:
        """A rematch: the old room's players take the same seats here, with new tokens, and
        the same host seat (else the first player). Returns the new tokens by seat."""
        tokens = {}
        for seat in old.seats:
            if seat.token_hash is not None:
                target, tokens[seat.index] = self.seats[seat.index], new_token()
                target.name, target.token_hash = seat.name, hash_token(tokens[seat.index])
                target.account_id = seat.account_id
        humans = [s.index for s in old.seats if s.token_hash is not None]
        self.host_seat = old.host_seat if old.host_seat is not None else (
            humans[0] if humans else None)
        return tokens

    def unseat_players(self, seats: list[int]) -> None:
        """Undo `seat_players_of` (the seats could not be made durable)."""
        for index in seats:
            self.seats[index].vacate()
        self.host_seat = None

    def link_rematch(self, new: RoomState, tokens: dict[int, str]) -> None:
        """The next game at this table is `new`; its players' tokens wait here."""
        self.rematch_tokens.update(tokens)
        self.rematch = new.display_code
        self.commit([{"type": "rematch", "code": new.display_code}])

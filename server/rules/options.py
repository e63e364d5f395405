"""The options of a game: declared once here, derived everywhere else.

`GameOptions` is the one definition of what a game can be set up with. The room options
(server.rooms.options) extend it, the HTTP and export models (server.api.options) are built
from its fields and their metadata, and `new_game_from` is the one conversion from options
to a dealt game, used by live rooms and stored-game replays alike.

Adding an option: a field here (with its metadata), its effect in setup.py, and its tests;
storage (`to_dict`/`from_dict`, and the room's) goes over the fields.
A `control` in its metadata puts it in the lobby's form and the waiting room's summary
(server.rooms.options.option_form), with its sentences `option.<name>` (and one per
choice) in each language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from .errors import MalformedAction

MIN_PLAYERS, MAX_PLAYERS = 2, 4


@dataclass(frozen=True, slots=True)
class GameOptions:
    """What a game is set up with. The metadata feeds the API and export schemas, and the
    lobby's form (`control`)."""

    players: int = field(metadata={"ge": MIN_PLAYERS, "le": MAX_PLAYERS,
                                   "description": "2, 3 or 4 seats", "control": "count"})
    starter_orders: bool = field(default=False, metadata={
        "description": "deal the starter orders first (R-SETUP-V1)", "control": "check"})
    starting_player: int | None = field(default=None, metadata={
        "description": "a seat; null: drawn at random", "control": "seat"})

    def check(self) -> None:
        """Raise MalformedAction if these options cannot set up a game."""
        if type(self.players) is not int or not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise MalformedAction("a game has 2, 3 or 4 players", "R-SETUP")
        if type(self.starter_orders) is not bool:
            raise MalformedAction("starter_orders is true or false", "R-SETUP-V1")
        start = self.starting_player
        if start is not None and (type(start) is not int or not 0 <= start < self.players):
            raise MalformedAction("starting_player must be a seat number", "R-SETUP-1")

    def game_options(self) -> GameOptions:
        """Only the options the engine knows (a subclass may carry more)."""
        if type(self) is GameOptions:
            return self
        return GameOptions(**GameOptions.to_dict(self))

    def to_dict(self) -> dict[str, Any]:
        """The engine's options by name (every field of GameOptions: a new one comes along)."""
        return {f.name: getattr(self, f.name) for f in fields(GameOptions)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameOptions:
        """Game options from a stored or sent dict (other keys, e.g. room options, ignored).
        Raises MalformedAction when they cannot set up a game."""
        if not isinstance(data, Mapping) or "players" not in data:
            raise MalformedAction("options need a number of players", "R-SETUP")
        options = GameOptions(**{k: data[k] for k in GAME_OPTION_NAMES if k in data})
        options.check()
        return options


GAME_OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in fields(GameOptions))

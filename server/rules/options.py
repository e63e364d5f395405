"""The options of a game: declared once here, derived everywhere else.

`GameOptions` is the one definition of what a game can be set up with. The room options
(server.rooms.options) extend it, the HTTP and export models (server.api.options) are built
from its fields and their metadata, and `new_game_from` is the one conversion from options
to a dealt game, used by live rooms and stored-game replays alike.

Adding an option: a field here (with its metadata), its effect (in setup.py, or a house
rule's variant in variants.py, named by `"variant"` in the metadata), and its tests;
storage (`to_dict`/`from_dict`, and the room's) goes over the fields.
A `control` in its metadata puts it in the lobby's form and the waiting room's summary
(server.rooms.options.option_form), with its sentences `option.<name>` (and one per
choice) in each language.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import KW_ONLY, Field, dataclass, field, fields
from operator import attrgetter
from typing import Any

from .errors import MalformedAction
from .variants import Lesson, LongGame, Standard, StarterOrders, combined

MIN_PLAYERS, MAX_PLAYERS = 2, 4


@dataclass(frozen=True, slots=True)
class GameOptions:
    """What a game is set up with. The metadata feeds the API and export schemas, and the
    lobby's form (`control`)."""

    # "stored": "always": in the stored form even at its default (these always were).
    players: int = field(metadata={"ge": MIN_PLAYERS, "le": MAX_PLAYERS,
                                   "description": "2, 3 or 4 seats", "control": "count",
                                   "stored": "always"})
    # The rest by name only: a field added later cannot shift what a caller meant.
    _: KW_ONLY
    starter_orders: bool = field(default=False, metadata={
        "description": "deal the starter orders first (R-SETUP-V1)", "control": "check",
        "stored": "always", "variant": StarterOrders})
    starting_player: int | None = field(default=None, metadata={
        "ge": 0, "le": MAX_PLAYERS - 1,
        "description": "a seat, below `players`; null: drawn at random", "control": "seat",
        "stored": "always"})
    long_game: bool = field(default=False, metadata={
        "description": "a house rule: the game closes at a sixth Penalty Card, not a fifth "
                       "(R-END-V1); absent: false", "control": "check", "variant": LongGame})
    lesson: bool = field(default=False, metadata={
        "description": "the guided first game (\"Learn to play\"): its fixed, short teaching "
                       "deal (R-SETUP-L); such a room is unrated and its finished game is not "
                       "listed by default; absent: false", "variant": Lesson})

    def check(self) -> None:
        """Raise MalformedAction if these options cannot set up a game."""
        if type(self.players) is not int or not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise MalformedAction("a game has 2, 3 or 4 players", "R-SETUP")
        if type(self.starter_orders) is not bool:
            raise MalformedAction("starter_orders is true or false", "R-SETUP-V1")
        if type(self.long_game) is not bool:
            raise MalformedAction("long_game is true or false", "R-END-V1")
        if type(self.lesson) is not bool:
            raise MalformedAction("lesson is true or false", "R-SETUP-L")
        start = self.starting_player
        if start is not None and (type(start) is not int or not 0 <= start < self.players):
            raise MalformedAction("starting_player must be a seat number", "R-SETUP-1")

    def game_options(self) -> GameOptions:
        """Only the options the engine knows (a subclass may carry more)."""
        if type(self) is GameOptions:
            return self
        return GameOptions(**GameOptions.to_dict(self))

    def to_dict(self) -> dict[str, Any]:
        """The engine's options by name, in their stored form (every field of GameOptions:
        a new one comes along)."""
        return stored_form(self, fields(GameOptions))

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


# The options that turn a house rule on (their metadata names its variant), read at once.
_VARIANTS = tuple(f for f in fields(GameOptions) if "variant" in f.metadata)
_SWITCHES = attrgetter(*(f.name for f in _VARIANTS), "players")  # a tuple, even of one
_RULES: dict[tuple[Any, ...], Standard] = {}


def rules_of(options: GameOptions) -> Standard:
    """The rules a game with these options is played by (server/rules/variants.py)."""
    switches = _SWITCHES(options)
    rules = _RULES.get(switches)
    if rules is None:
        rules = _RULES[switches] = combined(
            tuple(f.metadata["variant"]
                  for f, on in zip(_VARIANTS, switches[:-1], strict=True) if on))
    return rules


def stored_form(options: object, declared: Iterable[Field[Any]]) -> dict[str, Any]:
    """The `declared` fields of `options` by name, as stored and sent. A field at its
    default is absent (a game or room stored before it existed reads the same) unless its
    metadata says `"stored": "always"`; a value with a `to_dict` is stored in that form."""
    out: dict[str, Any] = {}
    for f in declared:
        value = getattr(options, f.name)
        if value != f.default or f.metadata.get("stored") == "always":
            out[f.name] = value.to_dict() if hasattr(value, "to_dict") else value
    return out

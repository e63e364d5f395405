"""The mutable game state. Plain containers; the rules live in actions/ (one module per
action type), engine.py, legal.py and moves.py."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, TypedDict, TypeVar, cast

from .options import GameOptions
from .shapes import Result

if TYPE_CHECKING:
    from typing_extensions import ReadOnly

# Phases, in the order a game passes through them.
PLACEMENT = "placement"  # R-SETUP-3
STARTING_CUP = "starting_cup"  # R-SETUP-4 (2 players)
UPGRADE = "upgrade"  # R-UPG
MOVE = "move"  # R-MOVE
POUR = "pour"  # R-POUR
PROCESS = "process"  # R-PROC
OVER = "over"
PHASES = (PLACEMENT, STARTING_CUP, UPGRADE, MOVE, POUR, PROCESS, OVER)
TURN_PHASES = (UPGRADE, MOVE, POUR, PROCESS)


class Played(TypedDict):
    """An action as the state holds it (this turn's log, the cached legal list): a dict with
    its type. What it is, action.Action, is the union of the shapes of actions/, whose
    modules act on this state: naming it here would make a cycle. engine.py and legal.py,
    above both, hand these out as Action (every one was listed by legal_actions)."""

    type: ReadOnly[str]


@dataclass(slots=True)
class Player:
    meeples: list[int] = field(default_factory=list)  # cell index per meeple
    tabs: list[list[int]] = field(default_factory=lambda: [[], [], [], []])  # card ids
    cups: list[list[int]] = field(default_factory=lambda: [[], [], []])  # ingredient idx
    completed: list[int] = field(default_factory=list)
    penalties: list[int] = field(default_factory=list)
    rush: int = 0
    upgrades: list[bool] = field(default_factory=lambda: [False, False, False, False])
    turns: int = 0

    def clone(self) -> Player:
        return _clone(self, _PLAYER_COPIES)

    def order_count(self) -> int:
        t = self.tabs
        return len(t[0]) + len(t[1]) + len(t[2]) + len(t[3])


@dataclass(slots=True)
class TurnStart:
    """What a turn can change, as it was when the turn began (for undo, R-TURN)."""

    player: Player
    supply: list[int]
    rush_supply: int
    discard: list[int]
    phase: str


@dataclass(slots=True)
class Game:
    seed: int
    players: list[Player]
    options: GameOptions
    deck: list[int]  # the next card to draw is deck[-1]; secret until the game is over
    set_aside: list[int]  # R-SETUP-V1 leftovers, face up, out of the game
    discard: list[int]
    supply: list[int]
    rush_supply: int
    start: int  # starting player's seat
    current: int  # seat to act
    phase: str
    pending: list[int]  # setup: seats still to place a meeple / choose a cup, in order
    closed: bool = False
    close_reason: str | None = None
    turn: int = 0  # main turns begun so far
    # Turn-scoped state (R-TURN).
    hand: list[int] = field(default_factory=lambda: [0] * 8)
    moving: int | None = None  # index of the meeple that moves this turn
    steps: int = 0
    path: list[int] = field(default_factory=list)
    served: int = 0
    upgraded: bool = False
    turn_log: list[Played] = field(default_factory=list)
    turn_start: TurnStart | None = None
    # Bookkeeping.
    version: int = 0  # actions applied so far
    result: Result | None = None
    legal_cache: tuple[int, Sequence[Played]] | None = field(
        default=None, compare=False, repr=False)  # (version, legal actions at that version)
    # The parts of the last view, each with the state it was made from (see view.py).
    view_cache: dict[object, tuple[Any, Any]] | None = field(
        default=None, compare=False, repr=False)

    @property
    def n(self) -> int:
        return len(self.players)

    def clone(self) -> Game:
        """A copy independent of this one (for bots' look-ahead)."""
        return _clone(self, _GAME_COPIES)


# How `clone` copies each field that holds something mutable; every other field holds an
# immutable value (or a frozen one, like the options) and is shared. Driven by the fields,
# so a new one is never dropped; tests/rules/test_state_fields.py checks that a clone
# shares nothing mutable, so a new mutable field must get its line here.
def _nested(lists: list[list[int]]) -> list[list[int]]:
    return [x[:] for x in lists]


def _turn_start(ts: TurnStart | None) -> TurnStart | None:
    if ts is None:
        return None
    return TurnStart(ts.player.clone(), ts.supply[:], ts.rush_supply, ts.discard[:], ts.phase)


def _nothing(_: object) -> None:
    return None


_PLAYER_COPIES: dict[str, Callable[[Any], Any]] = {
    "meeples": list.copy, "tabs": _nested, "cups": _nested, "completed": list.copy,
    "penalties": list.copy, "upgrades": list.copy,
}
_GAME_COPIES: dict[str, Callable[[Any], Any]] = {
    "players": lambda players: [p.clone() for p in players],
    "deck": list.copy, "set_aside": list.copy, "discard": list.copy, "supply": list.copy,
    "pending": list.copy, "hand": list.copy, "path": list.copy, "turn_log": list.copy,
    "turn_start": _turn_start,
    "legal_cache": _nothing, "view_cache": _nothing,  # a copy starts without caches
}


T = TypeVar("T", Player, Game)
_CLONERS: dict[type, Callable[[Any], Any]] = {}  # per class: its clone function


def _clone(source: T, copies: dict[str, Callable[[Any], Any]]) -> T:
    cls = type(source)
    cloner = _CLONERS.get(cls)
    if cloner is None:
        cloner = _CLONERS[cls] = _make_cloner(cls, copies)
    return cloner(source)  # type: ignore[no-any-return]  # cls's own clone: a T


def _make_cloner(cls: type, copies: dict[str, Callable[[Any], Any]]) -> Callable[[Any], Any]:
    """`cls`'s clone as one function of straight attribute copies, made from its fields as
    dataclasses makes `__init__`: a loop of getattr/setattr per field cost the engine ~8%
    (a clone a turn, for undo)."""
    lines = ["def clone(s):", " n = new(cls)"]
    scope: dict[str, Any] = {"new": cls.__new__, "cls": cls}
    for f in fields(cls):
        if f.name in copies:
            scope[f"copy_{f.name}"] = copies[f.name]
            lines.append(f" n.{f.name} = copy_{f.name}(s.{f.name})")
        else:
            lines.append(f" n.{f.name} = s.{f.name}")
    lines.append(" return n")
    exec("\n".join(lines), scope)  # noqa: S102  (the source is made of field names only)
    return cast(Callable[[Any], Any], scope["clone"])


def is_over(game: Game) -> bool:
    """Whether the game has ended (its result is final)."""
    return game.phase == OVER

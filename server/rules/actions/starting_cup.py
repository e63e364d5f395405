"""Two players: the second meeple's token goes into a chosen cup (R-SETUP-4)."""

from __future__ import annotations

from typing import Literal, TypedDict

from ..actiontype import Events, Key, declare, keep
from ..moves import begin_turn, take_into_cup
from ..state import STARTING_CUP, Game


class StartingCup(TypedDict):
    type: Literal["starting_cup"]
    cup: int


_STARTING_CUP = [keep(("starting_cup", k), StartingCup(type="starting_cup", cup=k))
                 for k in range(3)]


def legal(game: Game, out: list[StartingCup]) -> None:
    out.extend(_STARTING_CUP)


def apply(game: Game, key: Key, legal: StartingCup) -> Events:
    seat = game.pending.pop(0)
    events: Events = [take_into_cup(game, seat, 1, key[1])]
    if game.pending:
        game.current = game.pending[0]
        return events
    return events + begin_turn(game, game.start)


ACTION = declare(StartingCup, phases=(STARTING_CUP,), rule="R-SETUP-4", control="cup",
                 legal=legal, apply=apply)

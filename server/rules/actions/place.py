"""Place a meeple on a free cell (R-SETUP-3): the placement round, in seat order."""

from __future__ import annotations

from typing import Literal, TypedDict

from ..actiontype import Events, Key, declare, keep
from ..data import CELL_COUNT, CELL_INDEX, CELL_NAMES
from ..moves import begin_turn, take_into_cup
from ..state import PLACEMENT, STARTING_CUP, Game


class Place(TypedDict):
    type: Literal["place"]
    cell: str


_PLACE = [keep(("place", c), Place(type="place", cell=c)) for c in CELL_NAMES]


def legal(game: Game, out: list[Place]) -> None:
    taken = {c for p in game.players for c in p.meeples}
    out.extend([_PLACE[c] for c in range(CELL_COUNT) if c not in taken])


def apply(game: Game, key: Key, legal: Place) -> Events:
    seat = game.pending.pop(0)
    game.players[seat].meeples.append(CELL_INDEX[key[1]])
    events: Events = [{"type": "placed", "seat": seat, "cell": key[1]}]
    if game.pending:
        game.current = game.pending[0]
        return events
    # Every meeple is down: each player takes the token(s) under their meeple(s).
    for seat in range(game.n):
        events.append(take_into_cup(game, seat, 0, 0))
    if game.n == 2:
        game.phase = STARTING_CUP
        game.pending = [game.start, 1 - game.start]
        game.current = game.start
        return events
    return events + begin_turn(game, game.start)


ACTION = declare(Place, phases=(PLACEMENT,), rule="R-SETUP-3", control="cell",
                 legal=legal, apply=apply)

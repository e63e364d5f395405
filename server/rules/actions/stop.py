"""End the movement after at least one step, on a cell of one's own (R-MOVE)."""

from __future__ import annotations

from typing import Literal, TypedDict

from ..actiontype import Events, Key, declare, keep
from ..data import CELL_NAMES
from ..state import MOVE, POUR, Game


class Stop(TypedDict):
    type: Literal["stop"]


_STOP = keep(("stop",), Stop(type="stop"))


def legal(game: Game, out: list[Stop]) -> None:
    moving = game.moving
    if moving is None or game.steps < 1:
        return
    here = game.players[game.current].meeples[moving]
    meeples_here = 0
    for player in game.players:
        meeples_here += player.meeples.count(here)
    if meeples_here == 1:  # only the one moving: no other meeple shares the cell
        out.append(_STOP)


def apply(game: Game, key: Key, legal: Stop) -> Events:
    game.phase = POUR
    assert game.moving is not None  # stop is legal only after a step
    cell = game.players[game.current].meeples[game.moving]
    return [{"type": "stopped", "seat": game.current, "cell": CELL_NAMES[cell],
             "steps": game.steps}]


ACTION = declare(Stop, phases=(MOVE,), order=2, rule="R-MOVE", control="button",
                 legal=legal, apply=apply)

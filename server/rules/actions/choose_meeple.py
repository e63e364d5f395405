"""Two players: choose which of the two meeples moves this turn (R-MOVE)."""

from __future__ import annotations

from typing import Literal, TypedDict

from ..actiontype import Events, Key, declare, keep
from ..state import MOVE, Game


class ChooseMeeple(TypedDict):
    type: Literal["choose_meeple"]
    meeple: int


_CHOOSE = [keep(("choose_meeple", m), ChooseMeeple(type="choose_meeple", meeple=m))
           for m in range(2)]


def legal(game: Game, out: list[ChooseMeeple]) -> None:
    if game.moving is None:
        out.extend(_CHOOSE[: len(game.players[game.current].meeples)])


def apply(game: Game, key: Key, legal: ChooseMeeple) -> Events:
    game.moving = key[1]
    game.path = [game.players[game.current].meeples[key[1]]]
    return [{"type": "meeple_chosen", "seat": game.current, "meeple": key[1]}]


ACTION = declare(ChooseMeeple, phases=(MOVE,), rule="R-MOVE", control="meeple",
                 legal=legal, apply=apply)

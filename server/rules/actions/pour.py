"""Pour a token from the hand into a cup with room (R-POUR)."""

from __future__ import annotations

from typing import Literal, TypedDict

from ..actiontype import Events, Key, declare, keep
from ..data import CUP_CAPACITY, ING_INDEX, INGREDIENTS
from ..state import POUR, Game


class Pour(TypedDict):
    type: Literal["pour"]
    ingredient: str
    cup: int


# _POURS[ingredient][mask of cups with room] = the pours into those cups, one dict per
# (ingredient, cup) shared by every mask.
_INTO = [[keep(("pour", name, k), Pour(type="pour", ingredient=name, cup=k)) for k in range(3)]
         for name in INGREDIENTS]
_POURS = [[tuple(_INTO[ing][k] for k in range(3) if mask >> k & 1) for mask in range(8)]
          for ing in range(len(INGREDIENTS))]


def legal(game: Game, ingredient: int, out: list[Pour]) -> None:
    cups = game.players[game.current].cups
    room = (
        (len(cups[0]) < CUP_CAPACITY)
        | (len(cups[1]) < CUP_CAPACITY) << 1
        | (len(cups[2]) < CUP_CAPACITY) << 2
    )
    out.extend(_POURS[ingredient][room])


def apply(game: Game, key: Key, legal: Pour) -> Events:
    ing = ING_INDEX[key[1]]
    game.hand[ing] -= 1
    game.players[game.current].cups[key[2]].append(ing)
    return [{"type": "poured", "seat": game.current, "ingredient": key[1], "cup": key[2]}]


ACTION = declare(Pour, phases=(POUR,), each="held", rule="R-POUR", control="pour",
                 legal=legal, apply=apply)

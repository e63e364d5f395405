"""Return a token from the hand to the supply (R-POUR)."""

from __future__ import annotations

from typing import Literal, TypedDict

from ..actiontype import Events, Key, declare, keep
from ..data import ING_INDEX, INGREDIENTS
from ..state import POUR, Game


class Return(TypedDict):
    type: Literal["return"]
    ingredient: str


_RETURN = [keep(("return", name), Return(type="return", ingredient=name))
           for name in INGREDIENTS]


def legal(game: Game, ingredient: int, out: list[Return]) -> None:
    out.append(_RETURN[ingredient])


def apply(game: Game, key: Key, legal: Return) -> Events:
    ing = ING_INDEX[key[1]]
    game.hand[ing] -= 1
    game.supply[ing] += 1
    return [{"type": "returned", "seat": game.current, "ingredient": key[1]}]


ACTION = declare(Return, phases=(POUR,), order=1, each="held", rule="R-POUR",
                 control="return", legal=legal, apply=apply)

"""Empty a cup back into the supply (R-POUR)."""

from __future__ import annotations

from typing import Literal, TypedDict

from ..actiontype import Events, Key, declare, keep
from ..data import INGREDIENTS
from ..events import Emptied
from ..state import POUR, Game


class Empty(TypedDict):
    type: Literal["empty"]
    cup: int


_EMPTY = [keep(("empty", k), Empty(type="empty", cup=k)) for k in range(3)]


def legal(game: Game, out: list[Empty]) -> None:
    cups = game.players[game.current].cups
    for k in range(3):
        if cups[k]:
            out.append(_EMPTY[k])


def tokens(ings: list[int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for ing in ings:
        name = INGREDIENTS[ing]
        out[name] = out.get(name, 0) + 1
    return out


def apply(game: Game, key: Key, legal: Empty) -> Events:
    cup = game.players[game.current].cups[key[1]]
    for ing in cup:
        game.supply[ing] += 1
    event: Emptied = {"type": "emptied", "seat": game.current, "cup": key[1],
                      "returned": tokens(cup)}
    cup.clear()
    return [event]


ACTION = declare(Empty, phases=(POUR,), order=2, rule="R-POUR", control="empty",
                 legal=legal, apply=apply)

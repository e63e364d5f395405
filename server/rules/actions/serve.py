"""Serve a cup whose contents match an order on one's tabs (R-PROC)."""

from __future__ import annotations

from typing import Literal, TypedDict

from ..actiontype import Events, Key, declare, keep
from ..data import CARD_RECIPES, CARD_SPECIALTY
from ..data import card_public as card_info
from ..state import PROCESS, Game


class Serve(TypedDict):
    type: Literal["serve"]
    cup: int
    card: int


_SERVE = [
    [keep(("serve", k, card), Serve(type="serve", cup=k, card=card)) for card in range(80)]
    for k in range(3)
]


def legal(game: Game, out: list[Serve]) -> None:
    player = game.players[game.current]
    for k, cup in enumerate(player.cups):
        if not cup:
            continue
        contents = tuple(sorted(cup))
        # Most urgent first: tab 4 down to tab 1 (R-PROC, R-END flow of time).
        for tab in reversed(player.tabs):
            for card in tab:
                if CARD_RECIPES[card] == contents:
                    out.append(_SERVE[k][card])


def apply(game: Game, key: Key, legal: Serve) -> Events:
    player = game.players[game.current]
    cup, card = key[1], key[2]
    for ing in player.cups[cup]:
        game.supply[ing] += 1
    player.cups[cup].clear()
    for tab in player.tabs:
        if card in tab:
            tab.remove(card)
            break
    player.completed.append(card)
    game.served += 1
    rush = 1 if CARD_SPECIALTY[card] and game.rush_supply else 0  # R-PROC, R-COMP-5
    player.rush += rush
    game.rush_supply -= rush
    return [{"type": "served", "seat": game.current, "cup": cup, "card": card_info(card),
             "rush_gained": rush}]


ACTION = declare(Serve, phases=(PROCESS,), rule="R-PROC", control="serve",
                 legal=legal, apply=apply)

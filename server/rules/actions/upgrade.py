"""Activate an upgrade tile for three completed orders, once per turn (R-UPG)."""

from __future__ import annotations

from typing import Literal, TypedDict

from ..actiontype import Events, Key, declare, keep
from ..data import UPGRADE_COST, UPGRADE_INDEX, UPGRADES
from ..state import MOVE, UPGRADE, Game


class Upgrade(TypedDict):
    type: Literal["upgrade"]
    tile: str


_UPGRADE = [keep(("upgrade", t), Upgrade(type="upgrade", tile=t)) for t in UPGRADES]


def legal(game: Game, out: list[Upgrade]) -> None:
    upgrades = game.players[game.current].upgrades
    out.extend([_UPGRADE[i] for i in range(4) if not upgrades[i]])


def apply(game: Game, key: Key, legal: Upgrade) -> Events:
    player = game.players[game.current]
    tile = UPGRADE_INDEX[key[1]]
    spent = player.completed[-UPGRADE_COST:]  # which three does not matter (R-UPG)
    del player.completed[-UPGRADE_COST:]
    game.discard.extend(spent)
    player.upgrades[tile] = True
    game.upgraded = True
    game.phase = MOVE
    return [{"type": "upgraded", "seat": game.current, "tile": key[1], "discarded": spent}]


ACTION = declare(Upgrade, phases=(UPGRADE,), rule="R-UPG", control="tile",
                 legal=legal, apply=apply)

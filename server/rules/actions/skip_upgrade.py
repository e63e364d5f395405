"""Go on to movement without an upgrade (R-UPG)."""

from __future__ import annotations

from typing import Literal, TypedDict

from ..actiontype import Events, Key, declare, keep
from ..state import MOVE, UPGRADE, Game


class SkipUpgrade(TypedDict):
    type: Literal["skip_upgrade"]


_SKIP_UPGRADE = keep(("skip_upgrade",), SkipUpgrade(type="skip_upgrade"))


def legal(game: Game, out: list[SkipUpgrade]) -> None:
    out.append(_SKIP_UPGRADE)


def apply(game: Game, key: Key, legal: SkipUpgrade) -> Events:
    game.phase = MOVE
    return [{"type": "upgrade_skipped", "seat": game.current}]


ACTION = declare(SkipUpgrade, phases=(UPGRADE,), order=1, rule="R-UPG", control="button",
                 legal=legal, apply=apply)

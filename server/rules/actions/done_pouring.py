"""End the pouring once the hand is empty (R-POUR)."""

from __future__ import annotations

from typing import Literal, TypedDict

from ..actiontype import Events, Key, declare, keep
from ..state import POUR, PROCESS, Game


class DonePouring(TypedDict):
    type: Literal["done_pouring"]


_DONE_POURING = keep(("done_pouring",), DonePouring(type="done_pouring"))


def legal(game: Game, out: list[DonePouring]) -> None:
    if not any(game.hand):  # every token taken is poured or returned first
        out.append(_DONE_POURING)


def apply(game: Game, key: Key, legal: DonePouring) -> Events:
    game.phase = PROCESS
    return [{"type": "pouring_done", "seat": game.current}]


ACTION = declare(DonePouring, phases=(POUR,), order=3, rule="R-POUR", control="finish",
                 legal=legal, apply=apply)

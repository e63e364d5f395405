"""Every way paths.endings offers to finish a move is legal and gains what it says (R-MOVE)."""

from __future__ import annotations

from server.bots import multiset as ms
from server.bots.paths import endings
from server.rules import apply
from server.rules.data import CELL_NAMES

from .helpers import positions


def _check(game, meeple: int, max_rush: int) -> int:
    found = endings(game, meeple, max_rush)
    for e in found:
        g = game.clone()
        before = ms.pack(g.hand)
        rush = g.players[g.current].rush
        if g.moving is None:
            apply(g, {"type": "choose_meeple", "meeple": meeple})
        for cell in e.path:
            apply(g, {"type": "step", "cell": CELL_NAMES[cell]})  # raises if illegal
        apply(g, {"type": "stop"})
        assert ms.pack(g.hand) == before + e.gains
        assert g.players[g.current].meeples[meeple] == e.cell
        assert rush - g.players[g.current].rush == e.rush <= max_rush
    return len(found)


def test_endings_are_playable_in_varied_positions():
    checked = 0
    for players in (2, 3, 4):
        for seed in range(4):
            for game in positions(seed, players):
                if game.phase != "move" or game.turn % 3:
                    continue
                meeples = (
                    [game.moving] if game.moving is not None
                    else range(len(game.players[game.current].meeples))
                )
                for m in meeples:
                    checked += _check(game, m, max_rush=2)
    assert checked > 1000

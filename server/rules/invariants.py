"""What must hold in every reachable state: conservation of every component, one meeple a cell."""

from __future__ import annotations

from .data import CARD_COUNT, CUP_CAPACITY, RUSH_TOKENS, SUPPLY_VECTOR
from .errors import CorruptState
from .state import MOVE, PHASES, PLACEMENT, Game


def check_invariants(game: Game) -> None:
    """Raise CorruptState naming the first broken invariant."""
    if game.phase not in PHASES:
        raise CorruptState(f"unknown phase {game.phase!r}")
    n = game.n
    if not 2 <= n <= 4 or not 0 <= game.current < n or not 0 <= game.start < n:
        raise CorruptState("seats out of range")

    cards = list(game.deck) + game.set_aside + game.discard
    for p in game.players:
        for tab in p.tabs:
            cards += tab
        cards += p.completed + p.penalties
    if sorted(cards) != list(range(CARD_COUNT)):
        raise CorruptState("the 80 order cards are not each in exactly one place (R-COMP-3)")

    tokens = list(game.supply)
    for ing, count in enumerate(game.hand):
        tokens[ing] += count
    for p in game.players:
        for cup in p.cups:
            if len(cup) > CUP_CAPACITY:
                raise CorruptState("a cup holds more than 4 tokens (R-COMP-4)")
            for ing in cup:
                tokens[ing] += 1
    if tokens != list(SUPPLY_VECTOR) or min(game.supply) < 0 or min(game.hand) < 0:
        raise CorruptState("ingredient tokens are not conserved (R-COMP-2)")

    if game.rush_supply < 0 or any(p.rush < 0 for p in game.players):
        raise CorruptState("negative Rush Tokens (R-COMP-5)")
    if game.rush_supply + sum(p.rush for p in game.players) != RUSH_TOKENS:
        raise CorruptState("Rush Tokens are not conserved (R-COMP-5)")

    per_player = 2 if n == 2 else 1
    cells = []
    for seat, p in enumerate(game.players):
        if game.phase != PLACEMENT and len(p.meeples) != per_player:
            raise CorruptState("wrong number of meeples (R-COMP-4)")
        for i, cell in enumerate(p.meeples):
            if not 0 <= cell < 16:
                raise CorruptState("meeple off the board")
            if not (game.phase == MOVE and seat == game.current and i == game.moving):
                cells.append(cell)
    if len(set(cells)) != len(cells):
        raise CorruptState("two meeples on one cell (R-MOVE)")

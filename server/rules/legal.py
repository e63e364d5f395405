"""Every legal action for the seat to act, complete: anything not listed is refused.

Results are cached on the game per version, so asking twice (a client, then apply) is free.
"""

from __future__ import annotations

from .data import (
    ALL_NEIGHBOURS,
    BASE_STEPS,
    CARD_RECIPES,
    CELL_COUNT,
    CELL_ING,
    CELL_NAMES,
    CORNERS,
    CUP_CAPACITY,
    DIAGONAL,
    DOUBLE_CORNERS,
    DOUBLE_MEEPLES,
    DOUBLE_SPECIALTIES,
    INGREDIENTS,
    ORTHOGONAL_NEIGHBOURS,
    SPECIALTY_CELLS,
    UPGRADE_COST,
    UPGRADES,
)
from .state import MOVE, PLACEMENT, POUR, PROCESS, STARTING_CUP, UPGRADE, Game

_SKIP_UPGRADE = {"type": "skip_upgrade"}
_STOP = {"type": "stop"}
_DONE_POURING = {"type": "done_pouring"}
_END_TURN = {"type": "end_turn"}


def occupied_by_others(game: Game) -> set[int]:
    """Cells holding a meeple other than the one moving this turn (R-MOVE)."""
    cells: set[int] = set()
    current, moving = game.current, game.moving
    for seat, player in enumerate(game.players):
        for i, cell in enumerate(player.meeples):
            if seat != current or i != moving:
                cells.add(cell)
    return cells


def can_upgrade(game: Game) -> bool:
    """R-UPG: at least 3 completed orders and an inactive tile, once per turn."""
    player = game.players[game.current]
    return (
        not game.upgraded
        and len(player.completed) >= UPGRADE_COST
        and not all(player.upgrades)
    )


def step_gain(game: Game, cell: int, occupied: set[int]) -> int:
    """Tokens a step onto `cell` would take: multipliers stack, the supply caps (R-MOVE)."""
    ups = game.players[game.current].upgrades
    count = 1
    if ups[DOUBLE_MEEPLES] and cell in occupied:
        count *= 2
    if ups[DOUBLE_CORNERS] and cell in CORNERS:
        count *= 2
    if ups[DOUBLE_SPECIALTIES] and cell in SPECIALTY_CELLS:
        count *= 2
    available = game.supply[CELL_ING[cell]]
    return count if count <= available else available


def _step_actions(game: Game) -> list[tuple[tuple, dict]]:
    player = game.players[game.current]
    here = player.meeples[game.moving]
    paid = game.steps >= BASE_STEPS  # this step costs a Rush Token
    diagonal = player.upgrades[DIAGONAL]
    neighbours = ALL_NEIGHBOURS if diagonal else ORTHOGONAL_NEIGHBOURS
    candidates: tuple[int, ...] = () if paid and player.rush == 0 else neighbours[here]
    # Steps still possible after this one: free ones left plus every Rush Token held.
    reach = player.rush - 1 if paid else BASE_STEPS - game.steps - 1 + player.rush
    occupied = occupied_by_others(game)
    out = []
    for cell in candidates:
        if cell in occupied:
            # R-MOVE-DEADEND: after this step a free cell must still be within reach.
            # Within 2 steps there are always more cells than the 3 other meeples.
            if reach == 0:
                continue
            if reach == 1 and all(n in occupied for n in neighbours[cell]):
                continue
        ing = CELL_ING[cell]
        name = CELL_NAMES[cell]
        out.append((
            ("step", name),
            {
                "type": "step",
                "cell": name,
                "gain": {INGREDIENTS[ing]: step_gain(game, cell, occupied)},
                "rush": paid,
            },
        ))
    if game.steps >= 1 and here not in occupied:
        out.append((("stop",), _STOP))
    return out


def _pour_actions(game: Game) -> list[tuple[tuple, dict]]:
    player = game.players[game.current]
    cups = player.cups
    room = [k for k in range(3) if len(cups[k]) < CUP_CAPACITY]
    out = []
    holding = False
    for ing, count in enumerate(game.hand):
        if not count:
            continue
        holding = True
        name = INGREDIENTS[ing]
        for k in room:
            out.append((("pour", name, k), {"type": "pour", "ingredient": name, "cup": k}))
        out.append((("return", name), {"type": "return", "ingredient": name}))
    for k in range(3):
        if cups[k]:
            out.append((("empty", k), {"type": "empty", "cup": k}))
    if not holding:
        out.append((("done_pouring",), _DONE_POURING))
    return out


def _serve_actions(game: Game) -> list[tuple[tuple, dict]]:
    player = game.players[game.current]
    out = []
    for k, cup in enumerate(player.cups):
        if not cup:
            continue
        contents = tuple(sorted(cup))
        # Most urgent first: tab 4 down to tab 1 (R-PROC, R-END flow of time).
        for tab in reversed(player.tabs):
            for card in tab:
                if CARD_RECIPES[card] == contents:
                    out.append((("serve", k, card), {"type": "serve", "cup": k, "card": card}))
    out.append((("end_turn",), _END_TURN))
    return out


def _compute(game: Game) -> list[tuple[tuple, dict]]:
    phase = game.phase
    if phase == MOVE:
        if game.moving is None:
            return [
                (("choose_meeple", i), {"type": "choose_meeple", "meeple": i})
                for i in range(len(game.players[game.current].meeples))
            ]
        return _step_actions(game)
    if phase == POUR:
        return _pour_actions(game)
    if phase == PROCESS:
        return _serve_actions(game)
    if phase == UPGRADE:
        player = game.players[game.current]
        out = [
            (("upgrade", UPGRADES[i]), {"type": "upgrade", "tile": UPGRADES[i]})
            for i in range(4)
            if not player.upgrades[i]
        ]
        out.append((("skip_upgrade",), _SKIP_UPGRADE))
        return out
    if phase == PLACEMENT:
        taken = {c for p in game.players for c in p.meeples}
        return [
            (("place", CELL_NAMES[c]), {"type": "place", "cell": CELL_NAMES[c]})
            for c in range(CELL_COUNT)
            if c not in taken
        ]
    if phase == STARTING_CUP:
        return [(("starting_cup", k), {"type": "starting_cup", "cup": k}) for k in range(3)]
    return []


def legal_index(game: Game) -> dict[tuple, dict]:
    """Legal actions of the seat to act, keyed by their identity (see actions.action_key)."""
    cache = game.legal_cache
    if cache is not None and cache[0] == game.version:
        return cache[1]
    index = dict(_compute(game))
    game.legal_cache = (game.version, index)
    return index


def legal_actions(game: Game, seat: int | None = None) -> list[dict]:
    """The legal actions for `seat` (default: the seat to act); empty if it is not its turn."""
    if seat is not None and seat != game.current:
        return []
    return list(legal_index(game).values())

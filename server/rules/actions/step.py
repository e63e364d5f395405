"""Move the chosen meeple one cell, taking the tokens there (R-MOVE): up to 3 steps free,
each further one for a Rush Token; never onto a cell with no way on (R-MOVE-DEADEND)."""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from ..actiontype import Events, Key, declare, keep
from ..data import (
    ALL_NEIGHBOURS,
    BASE_STEPS,
    CELL_INDEX,
    CELL_ING,
    CELL_NAMES,
    CORNERS,
    DIAGONAL,
    DOUBLE_CORNERS,
    DOUBLE_MEEPLES,
    DOUBLE_SPECIALTIES,
    INGREDIENTS,
    ORTHOGONAL_NEIGHBOURS,
    SPECIALTY_CELLS,
)
from ..state import MOVE, Game


class Step(TypedDict):
    """`gain` and `rush`: what the step would take and cost, as listed (echoes: a client
    may send them back; they are not part of the action)."""

    type: Literal["step"]
    cell: str
    gain: NotRequired[dict[str, int]]
    rush: NotRequired[bool]


_STEP: dict[tuple[int, int, bool], Step] = {}


def _step_action(cell: int, count: int, paid: bool) -> Step:
    action = _STEP.get((cell, count, paid))
    if action is None:
        name = CELL_NAMES[cell]
        action = keep(("step", name), Step({
            "type": "step", "cell": name, "gain": {INGREDIENTS[CELL_ING[cell]]: count},
            "rush": paid,
        }))
        _STEP[(cell, count, paid)] = action
    return action


def occupied_by_others(game: Game) -> set[int]:
    """Cells holding a meeple other than the one moving this turn (R-MOVE)."""
    cells: set[int] = set()
    current, moving = game.current, game.moving
    for seat, player in enumerate(game.players):
        for i, cell in enumerate(player.meeples):
            if seat != current or i != moving:
                cells.add(cell)
    return cells


def gain_multiplier(upgrades: list[bool], cell: int, occupied: set[int] | frozenset[int]) -> int:
    """R-MOVE, R-FAQ-6: the active tiles' multipliers for entering `cell`, stacked."""
    count = 1
    if upgrades[DOUBLE_MEEPLES] and cell in occupied:
        count *= 2
    if upgrades[DOUBLE_CORNERS] and cell in CORNERS:
        count *= 2
    if upgrades[DOUBLE_SPECIALTIES] and cell in SPECIALTY_CELLS:
        count *= 2
    return count


def step_gain(game: Game, cell: int, occupied: set[int]) -> int:
    """Tokens a step onto `cell` would take: multipliers stack, the supply caps (R-MOVE)."""
    count = gain_multiplier(game.players[game.current].upgrades, cell, occupied)
    available = game.supply[CELL_ING[cell]]
    return count if count <= available else available


def legal(game: Game, out: list[Step]) -> None:
    if game.moving is None:  # a meeple is chosen first (two players)
        return
    player = game.players[game.current]
    here = player.meeples[game.moving]
    paid = game.steps >= BASE_STEPS  # this step costs a Rush Token
    diagonal = player.upgrades[DIAGONAL]
    neighbours = ALL_NEIGHBOURS if diagonal else ORTHOGONAL_NEIGHBOURS
    candidates: tuple[int, ...] = () if paid and player.rush == 0 else neighbours[here]
    # Steps still possible after this one: free ones left plus every Rush Token held.
    reach = player.rush - 1 if paid else BASE_STEPS - game.steps - 1 + player.rush
    occupied = occupied_by_others(game)
    for cell in candidates:
        if cell in occupied:
            # R-MOVE-DEADEND: after this step a free cell must still be within reach.
            # Within 2 steps there are always more cells than the 3 other meeples.
            if reach == 0:
                continue
            if reach == 1 and all(n in occupied for n in neighbours[cell]):
                continue
        out.append(_step_action(cell, step_gain(game, cell, occupied), paid))


def apply(game: Game, key: Key, legal: Step) -> Events:
    player = game.players[game.current]
    cell = CELL_INDEX[key[1]]
    moving = game.moving
    assert moving is not None  # step is legal only once a meeple is chosen
    here = player.meeples[moving]
    paid = game.steps >= BASE_STEPS
    if paid:  # R-MOVE: each step beyond 3 costs a Rush Token, back to the supply
        player.rush -= 1
        game.rush_supply += 1
    ing = CELL_ING[cell]
    count = legal["gain"][INGREDIENTS[ing]]  # computed by legal(), supply cap included
    game.supply[ing] -= count
    game.hand[ing] += count
    player.meeples[moving] = cell
    game.steps += 1
    game.path.append(cell)
    return [{
        "type": "moved", "seat": game.current, "meeple": moving,
        "from": CELL_NAMES[here], "to": key[1], "gained": {INGREDIENTS[ing]: count},
        "rush_spent": paid,
    }]


ACTION = declare(Step, phases=(MOVE,), order=1, rule="R-MOVE", control="cell",
                 echoes=("gain", "rush"), legal=legal, apply=apply)

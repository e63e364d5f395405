"""Every legal action for the seat to act, complete: anything not listed is refused.

Results are cached on the game per version, so asking twice (a client, then apply) is free.
Each action type's shape is a TypedDict here (registry.py reads its fields from it, and
static/js/core/types.js's typedefs are generated from it); mypy checks what is listed against it.
Actions from a client arrive as plain dicts and are checked by actions.action_key.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, NotRequired, TypedDict, TypeVar, cast

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

# --- the action types' shapes (the order of their fields is the action's identity) ------


class Place(TypedDict):
    type: Literal["place"]
    cell: str


class StartingCup(TypedDict):
    type: Literal["starting_cup"]
    cup: int


class Upgrade(TypedDict):
    type: Literal["upgrade"]
    tile: str


class SkipUpgrade(TypedDict):
    type: Literal["skip_upgrade"]


class ChooseMeeple(TypedDict):
    type: Literal["choose_meeple"]
    meeple: int


class Step(TypedDict):
    """`gain` and `rush`: what the step would take and cost, as listed (echoes: a client
    may send them back; they are not part of the action)."""

    type: Literal["step"]
    cell: str
    gain: NotRequired[dict[str, int]]
    rush: NotRequired[bool]


class Stop(TypedDict):
    type: Literal["stop"]


class Pour(TypedDict):
    type: Literal["pour"]
    ingredient: str
    cup: int


class Return(TypedDict):
    type: Literal["return"]
    ingredient: str


class Empty(TypedDict):
    type: Literal["empty"]
    cup: int


class DonePouring(TypedDict):
    type: Literal["done_pouring"]


class Serve(TypedDict):
    type: Literal["serve"]
    cup: int
    card: int


class EndTurn(TypedDict):
    type: Literal["end_turn"]


class Undo(TypedDict):
    """Offered through the view's `can_undo`, never listed."""

    type: Literal["undo"]


Listed = (Place | StartingCup | Upgrade | SkipUpgrade | ChooseMeeple | Step | Stop | Pour
          | Return | Empty | DonePouring | Serve | EndTurn)  # what legal_actions lists
ACTION_SHAPES = (Place, StartingCup, Upgrade, SkipUpgrade, ChooseMeeple, Step, Stop, Pour,
                 Return, Empty, DonePouring, Serve, EndTurn, Undo)
AnyAction = TypeVar("AnyAction", bound=Mapping[str, object])

# Legal actions are shared, read-only dicts built once; KEY_OF maps each one's id to its key
# (see actions.action_key), so applying a listed dict needs no parsing.
KEY_OF: dict[int, tuple[Any, ...]] = {}


def _const(key: tuple[Any, ...], action: AnyAction) -> AnyAction:
    KEY_OF[id(action)] = key
    return action


_SKIP_UPGRADE = _const(("skip_upgrade",), SkipUpgrade(type="skip_upgrade"))
_STOP = _const(("stop",), Stop(type="stop"))
_DONE_POURING = _const(("done_pouring",), DonePouring(type="done_pouring"))
_END_TURN = _const(("end_turn",), EndTurn(type="end_turn"))
_PLACE = [_const(("place", c), Place(type="place", cell=c)) for c in CELL_NAMES]
_STARTING_CUP = [_const(("starting_cup", k), StartingCup(type="starting_cup", cup=k))
                 for k in range(3)]
_UPGRADE = [_const(("upgrade", t), Upgrade(type="upgrade", tile=t)) for t in UPGRADES]
_CHOOSE = [_const(("choose_meeple", m), ChooseMeeple(type="choose_meeple", meeple=m))
           for m in range(2)]
_EMPTY = [_const(("empty", k), Empty(type="empty", cup=k)) for k in range(3)]
_SERVE = [
    [_const(("serve", k, card), Serve(type="serve", cup=k, card=card)) for card in range(80)]
    for k in range(3)
]
# _POUR[ingredient][mask of cups with room] = the pours into those cups, then the return.
_POUR: list[list[tuple[Pour | Return, ...]]] = [
    [
        tuple(
            _const(("pour", name, k), Pour(type="pour", ingredient=name, cup=k))
            for k in range(3) if mask >> k & 1
        ) + (_const(("return", name), Return(type="return", ingredient=name)),)
        for mask in range(8)
    ]
    for name in INGREDIENTS
]
for _ing in range(8):  # one dict per (ingredient, cup): reuse the mask-7 ones everywhere
    _full = {a.get("cup"): a for a in _POUR[_ing][7]}
    _POUR[_ing] = [tuple(_full[a.get("cup")] for a in _POUR[_ing][m]) for m in range(8)]
_STEP: dict[tuple[int, int, bool], Step] = {}


def _step_action(cell: int, count: int, paid: bool) -> Step:
    action = _STEP.get((cell, count, paid))
    if action is None:
        name = CELL_NAMES[cell]
        action = _const(("step", name), Step({
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


def can_upgrade(game: Game) -> bool:
    """R-UPG: at least 3 completed orders and an inactive tile, once per turn."""
    player = game.players[game.current]
    return (
        not game.upgraded
        and len(player.completed) >= UPGRADE_COST
        and not all(player.upgrades)
    )


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


def _step_actions(game: Game) -> list[Listed]:
    player = game.players[game.current]
    assert game.moving is not None  # a meeple was chosen (MOVE phase, see _compute)
    here = player.meeples[game.moving]
    paid = game.steps >= BASE_STEPS  # this step costs a Rush Token
    diagonal = player.upgrades[DIAGONAL]
    neighbours = ALL_NEIGHBOURS if diagonal else ORTHOGONAL_NEIGHBOURS
    candidates: tuple[int, ...] = () if paid and player.rush == 0 else neighbours[here]
    # Steps still possible after this one: free ones left plus every Rush Token held.
    reach = player.rush - 1 if paid else BASE_STEPS - game.steps - 1 + player.rush
    occupied = occupied_by_others(game)
    out: list[Listed] = []
    for cell in candidates:
        if cell in occupied:
            # R-MOVE-DEADEND: after this step a free cell must still be within reach.
            # Within 2 steps there are always more cells than the 3 other meeples.
            if reach == 0:
                continue
            if reach == 1 and all(n in occupied for n in neighbours[cell]):
                continue
        out.append(_step_action(cell, step_gain(game, cell, occupied), paid))
    if game.steps >= 1 and here not in occupied:
        out.append(_STOP)
    return out


def _pour_actions(game: Game) -> list[Listed]:
    cups = game.players[game.current].cups
    room = (
        (len(cups[0]) < CUP_CAPACITY)
        | (len(cups[1]) < CUP_CAPACITY) << 1
        | (len(cups[2]) < CUP_CAPACITY) << 2
    )
    out: list[Listed] = []
    for ing, count in enumerate(game.hand):
        if count:
            out.extend(_POUR[ing][room])
    holding = bool(out)
    for k in range(3):
        if cups[k]:
            out.append(_EMPTY[k])
    if not holding:
        out.append(_DONE_POURING)
    return out


def _serve_actions(game: Game) -> list[Listed]:
    player = game.players[game.current]
    out: list[Listed] = []
    for k, cup in enumerate(player.cups):
        if not cup:
            continue
        contents = tuple(sorted(cup))
        # Most urgent first: tab 4 down to tab 1 (R-PROC, R-END flow of time).
        for tab in reversed(player.tabs):
            for card in tab:
                if CARD_RECIPES[card] == contents:
                    out.append(_SERVE[k][card])
    out.append(_END_TURN)
    return out


def _compute(game: Game) -> list[Listed]:
    phase = game.phase
    if phase == MOVE:
        if game.moving is None:
            return [*_CHOOSE[: len(game.players[game.current].meeples)]]
        return _step_actions(game)
    if phase == POUR:
        return _pour_actions(game)
    if phase == PROCESS:
        return _serve_actions(game)
    if phase == UPGRADE:
        upgrades = game.players[game.current].upgrades
        return [*(_UPGRADE[i] for i in range(4) if not upgrades[i]), _SKIP_UPGRADE]
    if phase == PLACEMENT:
        taken = {c for p in game.players for c in p.meeples}
        return [_PLACE[c] for c in range(CELL_COUNT) if c not in taken]
    if phase == STARTING_CUP:
        return [*_STARTING_CUP]
    return []


def _cached(game: Game) -> list[dict[str, Any]]:
    cache = game.legal_cache
    if cache is None or cache[0] != game.version:
        # Each listed shape is a dict: the engine takes actions as plain dicts (Action).
        cache = (game.version, cast(list[dict[str, Any]], _compute(game)))
        game.legal_cache = cache
    return cache[1]


def legal_index(game: Game) -> dict[tuple[Any, ...], dict[str, Any]]:
    """Legal actions of the seat to act, keyed by their identity (see actions.action_key)."""
    return {KEY_OF[id(action)]: action for action in _cached(game)}


def listed_key(game: Game, action: object) -> tuple[Any, ...] | None:
    """The key of `action` if it is one of the dicts legal_actions lists now."""
    key = KEY_OF.get(id(action))
    if key is None:
        return None
    for listed in _cached(game):
        if listed is action:
            return key
    return None


def legal_actions(game: Game, seat: int | None = None) -> list[dict[str, Any]]:
    """The legal actions for `seat` (default: the seat to act); empty if it is not its turn.

    The dicts are shared by every game: treat them as read-only.
    """
    if seat is not None and seat != game.current:
        return []
    return _cached(game)[:]

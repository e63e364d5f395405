"""Component data of Coffee Rush (R-COMP). The one place that knows the board and deck."""

from __future__ import annotations

from .shapes import CardView

# 2: when one turn both empties the deck and brings a fifth Penalty Card, the game
# records "penalties", not "deck" (R-END-4); a stored game may now end with another result.
RULES_VERSION = 2
# The rules versions whose stored games this engine replays to the same state: the known
# answers (tests/rules/games/v<version>/, test_known_answers.py) replay every recorded game
# of each to its recorded state. A room of one of them is restored if its whole action log
# is accepted again; a room of another is refused unreplayed. A new action type or option
# changes no stored game: no new version. A change that alters stored games bumps the
# version and keeps an old one here only if its recorded games still replay the same.
REPLAYED_VERSIONS = frozenset({2})

# Ingredient order is fixed: indexes into supply and hand vectors use it.
INGREDIENTS: tuple[str, ...] = (
    "coffee", "milk", "steam", "ice", "chocolate", "caramel", "tea", "water",
)
ING_INDEX = {name: i for i, name in enumerate(INGREDIENTS)}
SPECIALTY_INGREDIENTS = frozenset({"chocolate", "caramel", "tea", "water"})

# R-COMP-1: the 4x4 board, row 1 on top; cell index = (row - 1) * 4 + (col - 1).
BOARD_ROWS = (
    ("ice", "caramel", "steam", "coffee"),
    ("coffee", "milk", "ice", "water"),
    ("tea", "steam", "milk", "coffee"),
    ("milk", "ice", "chocolate", "steam"),
)
CELL_COUNT = 16
CELL_NAMES: tuple[str, ...] = tuple(f"r{r + 1}c{c + 1}" for r in range(4) for c in range(4))
CELL_INDEX = {name: i for i, name in enumerate(CELL_NAMES)}
CELL_ING: tuple[int, ...] = tuple(ING_INDEX[name] for row in BOARD_ROWS for name in row)
CORNERS = frozenset({0, 3, 12, 15})
SPECIALTY_CELLS = frozenset(
    i for i in range(CELL_COUNT) if INGREDIENTS[CELL_ING[i]] in SPECIALTY_INGREDIENTS
)

# R-COMP-2: the finite ingredient supply.
SUPPLY = {
    "coffee": 18, "milk": 12, "steam": 12, "ice": 12,
    "chocolate": 12, "caramel": 12, "tea": 12, "water": 12,
}
SUPPLY_VECTOR: tuple[int, ...] = tuple(SUPPLY[name] for name in INGREDIENTS)

# R-COMP-5 / R-COMP-4
RUSH_TOKENS = 15
CUPS = 3
CUP_CAPACITY = 4
BASE_STEPS = 3
UPGRADE_COST = 3
UPGRADES: tuple[str, ...] = (
    "double_meeples", "diagonal_movement", "double_corners", "double_specialties",
)
UPGRADE_INDEX = {name: i for i, name in enumerate(UPGRADES)}
DOUBLE_MEEPLES, DIAGONAL, DOUBLE_CORNERS, DOUBLE_SPECIALTIES = range(4)
PENALTY_LIMIT = 5

# R-COMP-3: the 80-card deck as (copies, name, recipe, specialty).
DECK_SHEET: tuple[tuple[int, str, tuple[str, ...], bool], ...] = (
    (2, "Ristretto", ("coffee", "steam"), False),
    (2, "Espresso", ("coffee", "steam"), False),
    (4, "Espresso Doppio", ("coffee", "coffee", "steam"), False),
    (3, "Americano", ("coffee", "steam", "water"), False),
    (2, "Caffe Latte", ("coffee", "steam", "milk"), False),
    (2, "Einspanner", ("coffee", "steam", "milk"), False),
    (2, "Latte Macchiato", ("coffee", "steam", "milk"), False),
    (2, "Con Panna", ("coffee", "steam", "milk"), False),
    (2, "Iced Caffe Latte", ("coffee", "milk", "ice"), False),
    (2, "Iced Einspanner", ("coffee", "milk", "ice"), False),
    (3, "Iced Americano", ("coffee", "water", "ice"), False),
    (2, "Cold Brew", ("coffee", "water", "ice"), False),
    (6, "Caramel Caffe Freddo", ("coffee", "ice", "caramel"), False),
    (3, "Iced Milk Tea", ("milk", "ice", "tea"), False),
    (3, "Milk Tea", ("steam", "milk", "tea"), False),
    (2, "Cocoa", ("steam", "milk", "chocolate"), False),
    (2, "Chocolate Latte", ("steam", "milk", "chocolate"), False),
    (2, "Chocolate Shake", ("milk", "ice", "chocolate"), False),
    (2, "Iced Cocoa", ("milk", "ice", "chocolate"), False),
    (2, "Iced Chocolate Latte", ("milk", "ice", "chocolate"), False),
    (2, "Iced Mochaccino", ("coffee", "milk", "ice", "chocolate"), True),
    (2, "Iced Caffe Mocha", ("coffee", "milk", "ice", "chocolate"), True),
    (2, "Iced Caramel Macchiato", ("coffee", "milk", "ice", "caramel"), True),
    (2, "Caramel Frappe", ("coffee", "milk", "ice", "caramel"), True),
    (2, "Iced Caramel Caffe Latte", ("coffee", "milk", "ice", "caramel"), True),
    (2, "Caramel Macchiato", ("coffee", "steam", "milk", "caramel"), True),
    (2, "Caramel Caffe Latte", ("coffee", "steam", "milk", "caramel"), True),
    (2, "Caffe Mocha", ("coffee", "steam", "milk", "chocolate"), True),
    (2, "Mochaccino", ("coffee", "steam", "milk", "chocolate"), True),
    (3, "Iced Black Tea", ("water", "ice", "tea"), True),
    (3, "Iced Green Tea", ("water", "ice", "tea"), True),
    (3, "Green Tea", ("steam", "water", "tea"), True),
    (3, "Black Tea", ("steam", "water", "tea"), True),
)


def _recipe_key(recipe: tuple[str, ...]) -> tuple[int, ...]:
    """A recipe as a sorted tuple of ingredient indexes: equal keys = equal multisets."""
    return tuple(sorted(ING_INDEX[name] for name in recipe))


# Card id -> data. Ids follow the sheet order; an id names a card, never a deck position.
CARD_NAMES: tuple[str, ...] = tuple(
    name for copies, name, _, _ in DECK_SHEET for _ in range(copies)
)
CARD_RECIPES: tuple[tuple[int, ...], ...] = tuple(
    _recipe_key(recipe) for copies, _, recipe, _ in DECK_SHEET for _ in range(copies)
)
CARD_SPECIALTY: tuple[bool, ...] = tuple(
    special for copies, _, _, special in DECK_SHEET for _ in range(copies)
)
CARD_COUNT = len(CARD_NAMES)
# R-SETUP-V1: the two-ingredient starter cards.
# R-SETUP-L: the guided first game's deck, the next card to draw last (server/rules/variants.py
# Lesson). Chosen by scripts/lesson_deal.py so the lesson shows every concept in a few turns.
LESSON_DECK: tuple[int, ...] = (24, 41, 71, 21, 36, 3, 29, 68, 0, 22, 31, 76, 15, 51, 12, 30, 75,
                                47)  # seed 1250's shuffle, its last 18 cards

STARTER_CARDS: tuple[int, ...] = tuple(i for i in range(CARD_COUNT) if len(CARD_RECIPES[i]) == 2)


def _card_view(card: int) -> CardView:
    recipe: dict[str, int] = {}
    for ing in CARD_RECIPES[card]:
        name = INGREDIENTS[ing]
        recipe[name] = recipe.get(name, 0) + 1
    return {
        "id": card,
        "name": CARD_NAMES[card],
        "recipe": recipe,
        "specialty": CARD_SPECIALTY[card],
    }


# One shared dict per card: views reuse them, so a diff can skip unchanged cards by identity.
CARD_VIEWS: tuple[CardView, ...] = tuple(_card_view(c) for c in range(CARD_COUNT))


def card_public(card: int) -> CardView:
    """What anyone may know of a card that has been drawn (shared: treat as read-only)."""
    return CARD_VIEWS[card]


def _neighbours(diagonal: bool) -> tuple[tuple[int, ...], ...]:
    out = []
    for cell in range(CELL_COUNT):
        r, c = divmod(cell, 4)
        near = []
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if (dr, dc) == (0, 0) or (not diagonal and dr and dc):
                    continue
                rr, cc = r + dr, c + dc
                if 0 <= rr < 4 and 0 <= cc < 4:
                    near.append(rr * 4 + cc)
        out.append(tuple(near))
    return tuple(out)


ORTHOGONAL_NEIGHBOURS = _neighbours(diagonal=False)
ALL_NEIGHBOURS = _neighbours(diagonal=True)

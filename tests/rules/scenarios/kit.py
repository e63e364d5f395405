"""Compact positions and moves for scenario tests (STYLE: tests read like the rulebook).

A position is reached honestly where the rules allow it (meeples are placed with `place`
actions), then the table is arranged by moving components between their places — cards
between the deck and the tabs, tokens between the supply and the cups, Rush Tokens from
their supply — so every component stays conserved. The turn of the seat to act then
begins afresh and the position must pass `check_invariants`.

    game = position(
        players=4,
        board='''
            0 . . .
            . 1 . .
            . . 2 .
            . . . 3
        ''',
        seats={0: Seat(tabs=[["Espresso"]], cups=[["coffee"]], rush=1)},
    )

Board marks are seat numbers; in a 2-player game each seat has two marks, and the first
in reading order is meeple 0.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from server.rules import Game, apply, check_invariants, legal_actions, new_game
from server.rules.data import (
    CARD_NAMES,
    CELL_INDEX,
    CELL_NAMES,
    CUP_CAPACITY,
    ING_INDEX,
    INGREDIENTS,
    UPGRADE_INDEX,
)

# The one engine internal the kit needs: beginning a turn is how the engine derives the
# turn's first phase and its undo snapshot, and an arranged table must begin the same way.
from server.rules.moves import begin_turn as _begin_turn


@dataclass(frozen=True)
class Seat:
    """One player's side of the table. Cards are named as on the deck sheet (R-COMP-3)."""

    tabs: Sequence[Sequence[str]] = ()  # tab 1 first; missing tabs are empty
    cups: Sequence[Sequence[str]] = ()  # cup 0 first; missing cups are empty
    completed: Sequence[str] = ()
    penalties: Sequence[str] = ()
    rush: int = 0
    upgrades: Sequence[str] = ()  # tile names, e.g. "double_corners"


def parse_board(board: str | Mapping[int, Sequence[str]], players: int) -> list[list[str]]:
    """Meeple cells per seat from ASCII art (or from a {seat: [cells]} mapping)."""
    per_seat = 2 if players == 2 else 1
    if isinstance(board, Mapping):
        cells = [list(board[seat]) for seat in range(players)]
    else:
        rows = [line.split() for line in board.strip().splitlines()]
        if len(rows) != 4 or any(len(row) != 4 for row in rows):
            raise ValueError("a board is 4 rows of 4 marks")
        cells = [[] for _ in range(players)]
        for r, row in enumerate(rows):
            for c, mark in enumerate(row):
                if mark != ".":
                    cells[int(mark)].append(f"r{r + 1}c{c + 1}")
    if any(len(seat_cells) != per_seat for seat_cells in cells):
        raise ValueError(f"each seat needs {per_seat} meeple(s) on the board")
    return cells


def fill(ingredient: str, count: int) -> list[list[str]]:
    """Cups holding `count` tokens of one ingredient, 4 a cup: to drain the supply."""
    full, rest = divmod(count, CUP_CAPACITY)
    cups = [[ingredient] * CUP_CAPACITY for _ in range(full)]
    if rest:
        cups.append([ingredient] * rest)
    if len(cups) > 3:
        raise ValueError("three cups hold at most 12 tokens")
    return cups


def _take_card(game: Game, name: str) -> int:
    for i in range(len(game.deck) - 1, -1, -1):
        if CARD_NAMES[game.deck[i]] == name:
            return game.deck.pop(i)
    raise ValueError(f"no {name!r} card left in the deck")


def _take_token(game: Game, name: str) -> int:
    ing = ING_INDEX[name]
    if not game.supply[ing]:
        raise ValueError(f"no {name} token left in the supply")
    game.supply[ing] -= 1
    return ing


def _clear_table(game: Game) -> None:
    """Every dealt card back under the deck, every token back to the supply."""
    for player in game.players:
        cards = [c for tab in player.tabs for c in tab] + player.completed + player.penalties
        game.deck[:0] = cards
        player.tabs = [[], [], [], []]
        player.completed, player.penalties = [], []
        for cup in player.cups:
            for ing in cup:
                game.supply[ing] += 1
            cup.clear()


def _arrange(game: Game, seat: int, spec: Seat) -> None:
    player = game.players[seat]
    for tab, names in zip(player.tabs, spec.tabs, strict=False):
        tab.extend(_take_card(game, name) for name in names)
    for cup, names in zip(player.cups, spec.cups, strict=False):
        cup.extend(_take_token(game, name) for name in names)
    player.completed = [_take_card(game, name) for name in spec.completed]
    player.penalties = [_take_card(game, name) for name in spec.penalties]
    if spec.rush > game.rush_supply:
        raise ValueError("not enough Rush Tokens in the supply")
    player.rush = spec.rush
    game.rush_supply -= spec.rush
    for tile in spec.upgrades:
        player.upgrades[UPGRADE_INDEX[tile]] = True


def position(
    players: int,
    board: str | Mapping[int, Sequence[str]],
    seats: Mapping[int, Seat] | None = None,
    to_act: int = 0,
    start: int | None = None,
    deck_top: Sequence[str] = (),
    deck_size: int | None = None,
    seed: int = 1,
) -> Game:
    """A game at the start of `to_act`'s turn with the table laid out as described.

    Seats not described have no orders, no tokens and no tiles. `start` is the starting
    player (default: `to_act`). `deck_top` names the next cards to be drawn, first drawn
    first; `deck_size` then keeps only that many cards in the deck (the rest are set aside,
    out of the game).
    """
    game = new_game(seed=seed, players=players, starting_player=to_act if start is None else start)
    cells = parse_board(board, players)
    placed = [0] * players
    while game.phase == "placement":
        seat = game.current
        apply(game, {"type": "place", "cell": cells[seat][placed[seat]]})
        placed[seat] += 1
    while game.phase == "starting_cup":
        apply(game, {"type": "starting_cup", "cup": 0})

    _clear_table(game)
    for seat, spec in (seats or {}).items():
        _arrange(game, seat, spec)
    for name in reversed(deck_top):
        game.deck.append(_take_card(game, name))
    if deck_size is not None:
        cut = len(game.deck) - deck_size
        game.set_aside.extend(game.deck[:cut])
        del game.deck[:cut]

    game.turn -= 1  # the first turn begins again, for the seat to act
    _begin_turn(game, to_act)
    game.legal_cache = None
    check_invariants(game)
    return game


# --- acting -------------------------------------------------------------------------------


def act(game: Game, kind: str, **args: object) -> list[dict]:
    """Apply one action for the seat to act and check the state is still sound."""
    events = apply(game, {"type": kind, **args})
    check_invariants(game)
    return events


def walk(game: Game, *cells: str) -> list[dict]:
    """Step through `cells` in order (the `moved` events, one per step)."""
    events: list[dict] = []
    for cell in cells:
        events += act(game, "step", cell=cell)
    return events


def return_hand(game: Game) -> None:
    """Send every token still in hand back to the supply (R-POUR)."""
    for ing, count in enumerate(game.hand):
        for _ in range(count):
            act(game, "return", ingredient=INGREDIENTS[ing])


def to_process(
    game: Game, *cells: str, pour: Mapping[str, int] | None = None, meeple: int = 0,
) -> None:
    """Phases 1-3 plainly: no upgrade, walk `cells`, stop, pour `pour` ({ingredient: cup})
    and return the rest of the hand. The game is left in the process phase."""
    if game.phase == "upgrade":
        act(game, "skip_upgrade")
    if game.moving is None:
        act(game, "choose_meeple", meeple=meeple)
    walk(game, *cells)
    act(game, "stop")
    for name, cup in (pour or {}).items():
        while game.hand[ING_INDEX[name]]:
            act(game, "pour", ingredient=name, cup=cup)
    return_hand(game)
    act(game, "done_pouring")


def play_turn(
    game: Game, *cells: str, pour: Mapping[str, int] | None = None, meeple: int = 0,
) -> list[dict]:
    """A whole plain turn that serves nothing (see to_process); returns the end_turn events."""
    to_process(game, *cells, pour=pour, meeple=meeple)
    return act(game, "end_turn")


def pass_turn(game: Game) -> list[dict]:
    """A whole turn of one step to the first free cell offered (meeple 0), serving nothing."""
    taken = {c for p in game.players for c in p.meeples}
    if game.phase == "upgrade":
        act(game, "skip_upgrade")
    if game.moving is None:
        act(game, "choose_meeple", meeple=0)
    free = next(a["cell"] for a in legal(game, "step") if CELL_INDEX[a["cell"]] not in taken)
    return play_turn(game, free)


# --- looking --------------------------------------------------------------------------------


def legal(game: Game, kind: str) -> list[dict]:
    """The legal actions of one type for the seat to act."""
    return [a for a in legal_actions(game) if a["type"] == kind]


def step_cells(game: Game) -> set[str]:
    return {a["cell"] for a in legal(game, "step")}


def can(game: Game, kind: str, **args: object) -> bool:
    """Is this exact action among the legal ones?"""
    return any(
        a["type"] == kind and all(a.get(k) == v for k, v in args.items())
        for a in legal_actions(game)
    )


def of_type(events: Iterable[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


def names(cards: Iterable[int]) -> list[str]:
    return [CARD_NAMES[c] for c in cards]


def tabs(game: Game, seat: int) -> list[list[str]]:
    """A seat's orders by name, tab 1 first."""
    return [names(tab) for tab in game.players[seat].tabs]


def cups(game: Game, seat: int) -> list[list[str]]:
    return [sorted(INGREDIENTS[i] for i in cup) for cup in game.players[seat].cups]


def supply(game: Game, ingredient: str) -> int:
    return game.supply[ING_INDEX[ingredient]]


def hand(game: Game) -> dict[str, int]:
    return {INGREDIENTS[i]: n for i, n in enumerate(game.hand) if n}


def meeple_cells(game: Game, seat: int) -> list[str]:
    return [CELL_NAMES[c] for c in game.players[seat].meeples]


def order(game: Game, seat: int, name: str) -> int:
    """The id of a card of that name on a seat's tabs (the most urgent tab first)."""
    for tab in reversed(game.players[seat].tabs):
        for card in tab:
            if CARD_NAMES[card] == name:
                return card
    raise ValueError(f"seat {seat} has no {name!r} order")

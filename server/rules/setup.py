"""A new game: seeded shuffle, the deal and who places meeples first (R-SETUP)."""

from __future__ import annotations

from typing import Any

from .data import CARD_COUNT, RUSH_TOKENS, SUPPLY_VECTOR
from .errors import MalformedAction
from .options import GameOptions, rules_of
from .state import PLACEMENT, Game, Player

_MASK = (1 << 64) - 1


class SplitMix64:
    """A tiny, portable PRNG: the same seed shuffles the same way on every platform."""

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform in [0, n) by rejection, so no modulo bias."""
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next()
            if x < limit:
                return x % n

    def shuffle(self, items: list[Any]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def placement_order(players: int, start: int) -> list[int]:
    """R-SETUP-3: 3-4 players anticlockwise from the starter's right; 2 players alternate."""
    if players == 2:
        other = 1 - start
        return [other, start, other, start]
    return [(start - k) % players for k in range(1, players + 1)]


def new_game(
    seed: int,
    players: int,
    starting_player: int | None = None,
    starter_orders: bool = False,
) -> Game:
    """Shuffle and deal a new game; the first decision is the first meeple placement."""
    return new_game_from(seed, GameOptions(players, starter_orders=starter_orders,
                                             starting_player=starting_player))


def new_game_from(seed: int, options: GameOptions) -> Game:
    """The one conversion from options to a dealt game (rooms and replays both use it)."""
    options = options.game_options()
    players, starting_player = options.players, options.starting_player
    if type(players) is not int or not 2 <= players <= 4:
        raise MalformedAction("a game has 2, 3 or 4 players", "R-SETUP")
    if type(seed) is not int or not 0 <= seed < 1 << 64:
        raise MalformedAction("the seed is an integer in [0, 2**64)", "R-SETUP-1")
    options.check()
    rng = SplitMix64(seed)
    start = rng.below(players) if starting_player is None else starting_player

    rules = rules_of(options)
    starters = list(rules.starter_cards)  # R-SETUP-V1
    if starters:
        rng.shuffle(starters)
    if rules.deck_order is None:
        deck = [c for c in range(CARD_COUNT) if c not in starters]
        rng.shuffle(deck)
    else:  # R-SETUP-L: a lesson's fixed deal
        deck = [c for c in rules.deck_order if c not in starters]

    seats = [Player() for _ in range(players)]
    for k in range(players):  # R-SETUP-2: the deal, from the starting player clockwise
        seat = (start + k) % players
        tab1 = seats[seat].tabs[0]
        if starters:
            tab1.append(starters.pop())
            if seat == start:
                tab1.append(deck.pop())
        else:
            tab1.append(deck.pop())
            if seat == start:
                tab1.append(deck.pop())
        seats[seat].tabs[1].append(deck.pop())

    order = placement_order(players, start)
    return Game(
        seed=seed,
        players=seats,
        options=options,
        deck=deck,
        set_aside=sorted(starters),
        discard=[],
        supply=list(SUPPLY_VECTOR),
        rush_supply=RUSH_TOKENS,
        start=start,
        current=order[0],
        phase=PLACEMENT,
        pending=order,
    )

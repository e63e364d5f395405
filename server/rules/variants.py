"""House rules as objects the engine asks (scalachess's variants), not option flags tested
inside moves.

`Standard` answers every question a house rule may change, as the published rules do; a
variant is a subclass that overrides only its answers. An option that changes the rules is
a GameOptions field whose metadata names its variant (`"variant": LongGame`);
`options.rules_of` gives a game's rules: the standard answers with those of every variant
its options turn on. The engine asks `rules_of(game.options).<question>` where the rule
applies.

Adding a house rule: its question here on `Standard` (if new) and where the engine asks
it, its variant class, its option field (with `"variant"` in the metadata), its rule id in
docs/RULES.md, its tests and its sentences.
"""

from __future__ import annotations

from .data import LESSON_DECK, PENALTY_LIMIT, STARTER_CARDS


class Standard:
    """The published rules' answers."""

    penalty_limit: int = PENALTY_LIMIT  # R-END-PEN: Penalty Cards that close the game
    starter_cards: tuple[int, ...] = ()  # R-SETUP-V1: dealt first onto tab 1, one each
    deck_order: tuple[int, ...] | None = None  # R-SETUP-1: None: shuffled from the seed


class StarterOrders(Standard):
    """R-SETUP-V1: each player's first order is one of the two-ingredient cards."""

    starter_cards = STARTER_CARDS


class LongGame(Standard):
    """R-END-V1: the game closes at a sixth Penalty Card, not a fifth."""

    penalty_limit = PENALTY_LIMIT + 1


class Lesson(Standard):
    """R-SETUP-L: the guided first game's teaching deal. Its deck is not shuffled but this
    fixed, short order (the next card to draw last), so every lesson deals the same orders
    and the game ends after a few turns, when the deck runs out (R-END-DECK). Being fixed
    and written here, it hides nothing: only a lesson's own deal is known in advance, never
    a normal game's (R-HIDDEN)."""

    deck_order = LESSON_DECK


STANDARD = Standard()
_MADE: dict[tuple[type[Standard], ...], Standard] = {(): STANDARD}


def combined(variants: tuple[type[Standard], ...]) -> Standard:
    """The rules with these variants on (one object per combination)."""
    rules = _MADE.get(variants)
    if rules is None:
        _check_apart(variants)
        rules = _MADE[variants] = type("Rules", variants, {})()
    return rules


def _check_apart(variants: tuple[type[Standard], ...]) -> None:
    """Two variants on together must not answer the same question (neither would win)."""
    seen: set[str] = set()
    for variant in variants:
        own = {k for k in vars(variant) if not k.startswith("_")}
        assert not own & seen, f"{variant.__name__} answers {sorted(own & seen)} again"
        seen |= own

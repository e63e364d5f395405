"""House rules are variant objects the engine asks (server/rules/variants.py): the long
game (R-END-V1) closes at a sixth Penalty Card, starter orders (R-SETUP-V1) deal first."""

from __future__ import annotations

import random

import pytest

from server.rules import GameOptions, apply, legal_actions, new_game_from
from server.rules.data import STARTER_CARDS
from server.rules.options import rules_of
from server.rules.state import PROCESS, Game
from server.rules.variants import STANDARD, LongGame, StarterOrders


def at_first_process(options: GameOptions) -> Game:
    game, rng = new_game_from(11, options), random.Random(11)
    while game.phase != PROCESS:
        apply(game, rng.choice(legal_actions(game)))
    return game


@pytest.mark.parametrize(("long_game", "penalties", "closes"), [
    (False, 5, True), (True, 5, False), (True, 6, True)])
def test_penalties_close_the_game_at_the_limit_of_its_rules(
        long_game: bool, penalties: int, closes: bool) -> None:
    """R-END-PEN closes at 5 Penalty Cards; R-END-V1 (the long game) at 6."""
    game = at_first_process(GameOptions(3, long_game=long_game))
    player = game.players[game.current]
    player.penalties = [game.deck.pop() for _ in range(penalties)]
    events = apply(game, {"type": "end_turn"})
    assert game.closed is closes
    assert ({"type": "closed", "reason": "penalties"} in events) is closes


def test_the_rules_of_a_game_are_its_variants_answers() -> None:
    assert rules_of(GameOptions(2)) is STANDARD and STANDARD.penalty_limit == 5
    both = rules_of(GameOptions(4, starter_orders=True, long_game=True))
    assert isinstance(both, LongGame) and isinstance(both, StarterOrders)
    assert (both.penalty_limit, both.starter_cards) == (6, STARTER_CARDS)
    assert rules_of(GameOptions(3, long_game=True)).starter_cards == ()


def test_a_house_rule_is_absent_from_the_stored_options_when_off() -> None:
    """A game stored before the option existed reads the same, and so does its view."""
    assert GameOptions(3).to_dict() == {"players": 3, "starter_orders": False,
                                        "starting_player": None}
    assert GameOptions.from_dict(GameOptions(3, long_game=True).to_dict()).long_game is True

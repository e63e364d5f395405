"""Game options are named, never placed (issue 41.21): a field added to GameOptions must
not shift the meaning of a caller's arguments, so only the player count may go unnamed."""

from __future__ import annotations

import random

import pytest

from server.rules import GameOptions
from server.simulate import play_random_game


def test_options_after_the_player_count_must_be_named() -> None:
    with pytest.raises(TypeError):
        GameOptions(2, True)  # type: ignore[misc]
    assert GameOptions(2, starter_orders=True).starter_orders


def test_a_simulated_game_gets_the_options_it_names() -> None:
    game = play_random_game(3, random.Random(4), starter_orders=True)
    assert game.options == GameOptions(3, starter_orders=True)

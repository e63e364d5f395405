"""Behaviour of the greedy and strong bots beyond legality."""

from __future__ import annotations

import random

from server.bots import greedy, strong
from server.bots.match import play_game
from server.rules import apply, new_game, view

from .test_strong_eval import _midgame


def _greedy_game(seed: int, players: int):
    game = new_game(seed, players)
    rng = random.Random(seed)
    while game.phase != "over":
        seen = view(game, game.current)
        yield game, seen
        apply(game, greedy.choose(seen, rng, 0.0), game.current)


def test_greedy_serves_every_match_before_ending_its_turn():  # R-PROC
    serves = 0
    for players in (2, 4):
        for seed in range(3):
            for game, seen in _greedy_game(seed, players):
                if game.phase == "process" and any(a["type"] == "serve" for a in seen["legal"]):
                    action = greedy.choose(seen, random.Random(0), 0.0)
                    assert action["type"] == "serve"
                    serves += 1
    assert serves > 20


def test_greedy_follows_the_move_it_planned_at_the_first_step():  # R-MOVE
    checked = 0
    planned = None
    for game, _ in _greedy_game(6, 2):
        if game.phase == "move" and game.moving is None:
            planned = greedy.best_endings(game)[0]
        if game.phase == "pour" and planned is not None:
            assert game.players[game.current].meeples[planned.meeple] == planned.ending.cell
            checked += 1
            planned = None
    assert checked > 10


def test_greedy_ends_pouring_with_an_empty_hand():  # R-POUR
    for game, _ in _greedy_game(2, 3):
        if game.phase == "process":
            assert sum(game.hand) == 0


def test_strong_searches_once_per_turn_and_follows_its_plan(monkeypatch):
    searches = []
    real = strong.search

    def counting(*args, **kwargs):
        searches.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(strong, "search", counting)
    result = play_game([strong.choose, greedy.choose], seed=5, budget=0.002)
    assert 0 < len(searches) <= result["turns"][0]


def test_greedy_pays_for_steps_only_to_serve_more_unless_given_a_token_cost():  # R-FAQ-1
    game = _midgame(3, 6, players=4)
    game.players[game.current].rush = 2
    free = greedy.best_endings(game, 400)
    best_free = max(c.served for c in free if c.ending.rush == 0)
    assert all(c.served > best_free for c in free if c.ending.rush)
    priced = greedy.best_endings(game, 400, rush_cost=0.3)
    assert any(c.ending.rush and c.served <= best_free for c in priced)
    for c in priced:
        assert c.ending.rush <= 2

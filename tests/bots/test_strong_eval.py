"""The strong bot's sample value: the others' turns and the penalty outlook count."""

from __future__ import annotations

import random

from server.bots import greedy, rollout, strong
from server.bots.orders import SAVE
from server.rules import apply, new_game


def _midgame(seed: int, turns: int, players: int = 2):
    game = new_game(seed, players, starting_player=0)
    while game.phase in ("placement", "starting_cup"):
        apply(game, greedy.act(game))
    for _ in range(turns):
        rollout.finish_turn(game)
    return game


def test_risk_weighs_each_order_by_its_chance_of_becoming_a_penalty():  # R-END-2
    player = _midgame(1, 2).players[0]
    player.tabs = [[1, 2], [], [3], [4]]
    assert strong.risk(player) == 2 * SAVE[0] + SAVE[2] + SAVE[3]


def test_rollout_turn_reports_the_value_greedy_planned_to_serve():
    game = _midgame(2, 3)
    expected = greedy.best_endings(game, 1, rollout.ROLLOUT_RUSH)[0].done
    assert rollout.finish_turn(game) == expected


def test_what_the_opponent_serves_lowers_a_plan_by_its_weight(monkeypatch):
    game = _midgame(4, 4)
    plan = strong.candidate_plans(game, 1)[0]
    deck = list(game.deck)
    random.Random(0).shuffle(deck)
    served = {"value": 0.0}
    real = rollout.finish_turn

    def spy(g, *args):
        done = real(g, *args)
        served["value"] += done
        return done

    monkeypatch.setattr(rollout, "finish_turn", spy)
    monkeypatch.setattr(strong, "OPPONENT", 0.0)
    without, _ = strong.sample_value(game, plan, deck)
    monkeypatch.setattr(strong, "OPPONENT", 1.0)
    served["value"] = 0.0
    with_opponent, _ = strong.sample_value(game, plan, deck)
    assert with_opponent == without - served["value"]


def test_a_search_stops_at_its_work_budget_before_its_rounds(monkeypatch):
    """Strong's CPU is bounded by counted work (budget.py), not only by its rounds: a
    position where every rollout costs much ends its search early, on any machine."""
    from server.bots.budget import Budget
    from server.rules import view

    game = _midgame(5, 4)
    seen = view(game, game.current)
    counted: list[int] = []
    real = strong.sample_value

    def spy(*args):
        counted.append(1)
        return real(*args)

    monkeypatch.setattr(strong, "sample_value", spy)
    plans = len(strong.candidate_plans(game, strong.CANDIDATES))
    monkeypatch.setattr(strong, "FULL_WORK", 1)
    strong.search(game, seen, random.Random(0), Budget(1.0), 1.0)
    assert len(counted) == plans  # one round: the work was spent after it
    counted.clear()
    monkeypatch.setattr(strong, "FULL_WORK", 10**9)
    strong.search(game, seen, random.Random(0), Budget(1.0), 1.0)
    assert len(counted) == plans * strong.FULL_ROUNDS

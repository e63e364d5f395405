"""The expert of issue 48 searches the whole turn (the pour too); `expert-1`, the expert
before it, stays a level to compare against."""

from __future__ import annotations

import random
from dataclasses import replace

from server.bots import expert
from server.bots.budget import Budget
from server.bots.levels import LEVELS, REFERENCE, chooser
from server.bots.match import play_game
from server.rules import apply
from server.rules.actions import action_key

from .helpers import shuffled_views
from .test_strong_eval import _midgame


def _keys(actions: list[dict]) -> tuple:
    return tuple(map(action_key, actions))


def test_expert_1_is_a_reference_level_for_comparisons_not_offered_at_tables():
    assert chooser("expert-1") is expert.choose_v1 and "expert-1" in REFERENCE
    assert "expert-1" not in LEVELS  # the lobby's levels are unchanged
    assert expert.EXPERT_1.pours == 0


def test_expert_1_plans_are_the_new_experts_without_the_other_pours_and_rush_moves():
    for seed, turns in ((1, 4), (3, 14), (1, 18)):
        game = _midgame(seed, turns)
        new = expert.candidate_plans(game)
        old = expert.candidate_plans(game, expert.EXPERT_1)
        assert not any("another pour" in p.label for p in old)
        assert any("another pour" in p.label for p in new)
        # At 2 players the expert also weighs the best moves paying Rush for more steps.
        rush_moves = expert.candidate_plans(game, replace(expert.EXPERT_1, rush_tables=(2,)))
        assert [_keys(p.actions) for p in new if "another pour" not in p.label] == [
            _keys(p.actions) for p in rush_moves]


def test_other_pours_are_whole_legal_turns_that_pour_otherwise_after_the_same_move():
    # R-POUR: every hand token goes into a cup or back to the supply; cups may be emptied.
    game = _midgame(1, 8)
    plans = expert.candidate_plans(game)
    moves = {_keys(_move_of(p.actions)): p for p in plans if "another pour" not in p.label}
    others = [p for p in plans if "another pour" in p.label]
    assert others
    for plan in others:
        move = _keys(_move_of(plan.actions))
        assert move in moves  # one of the best moves, its pour changed
        assert _keys(plan.actions) != _keys(moves[move].actions)
        g = game.clone()
        for action in plan.actions:  # the engine refuses an illegal action
            apply(g, action)
        assert plan.actions[-1]["type"] == "end_turn"
        assert any(a["type"] == "done_pouring" for a in plan.actions)


def _move_of(actions: list[dict]) -> list[dict]:
    out = []
    for a in actions:
        if a["type"] in ("empty", "pour", "return", "done_pouring"):
            break
        out.append(a)
    return out


def test_the_new_expert_decides_the_same_for_every_deck_order_in_a_race():  # R-HIDDEN
    for seed, turns in ((1, 18), (5, 14)):
        game = _midgame(seed, turns)
        decisions = set()
        for seen in shuffled_views(game):
            decision = expert.decide(seen, random.Random(3), Budget(0.05), use_plans=False)
            assert decision.action in seen["legal"]
            decisions.add((repr(decision.action), decision.why))
        assert len(decisions) == 1


def test_the_new_expert_against_expert_1_is_the_same_game_twice():
    def game() -> dict:
        expert._plans.clear()
        return play_game([chooser("expert"), chooser("expert-1")], 8, 0.02)

    first = game()
    assert game() == first
    assert first["reason"] in ("penalties", "deck")


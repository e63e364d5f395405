"""The expert bot sees only its seat's view (R-HIDDEN) and explains its choice."""

from __future__ import annotations

import random

from server.bots import expert, greedy, rollout
from server.bots.budget import Budget
from server.rules import view
from server.rules.data import UPGRADE_INDEX
from server.rules.state import UPGRADE

from .helpers import shuffled_views
from .test_strong_eval import _midgame


def test_decision_is_the_same_for_every_deck_order_consistent_with_the_view():  # R-HIDDEN
    checked = 0
    for seed in (1, 5, 9):
        game = _midgame(seed, 4)
        for _ in range(3):
            decisions = set()
            for seen in shuffled_views(game):
                decision = expert.decide(seen, random.Random(7), Budget(0.05), use_plans=False)
                decisions.add((repr(decision.action), decision.why))
            assert len(decisions) == 1
            checked += 1
            rollout.finish_turn(game)
    assert checked == 9


def test_decision_comes_with_one_line_of_why():
    game = _midgame(2, 2)
    seen = view(game, game.current)
    decision = expert.decide(seen, random.Random(0), Budget(0.05), use_plans=False)
    assert decision.action in seen["legal"]
    assert "\n" not in decision.why and "plans" in decision.why


def test_candidate_plans_start_with_greedys_and_are_whole_turns():
    game = _midgame(3, 4)
    plans = expert.candidate_plans(game)
    first = greedy.best_endings(game.clone(), 1)[0]
    assert len(plans) > 1
    assert all(p.actions[-1]["type"] == "end_turn" for p in plans if p.actions)
    # Greedy's own move is among them (the first move plan after the upgrade choice).
    meeple_moves = [p for p in plans if p.actions and p.actions[0]["type"] == "choose_meeple"]
    assert meeple_moves[0].actions[0]["meeple"] == first.meeple


def test_search_work_is_counted_in_allocations_and_endings_not_seconds():
    game = _midgame(4, 3)
    memo = greedy.AllocationMemo()
    first = greedy.best_endings(game, 1, 0, memo)
    computed, scored = memo.allocations, memo.endings
    assert computed > 0 and scored >= computed - 1  # the allocator's build counts as one
    assert greedy.best_endings(game, 1, 0, memo) == first  # same answer from the memo
    assert memo.allocations == computed  # nothing new computed
    assert memo.endings == 2 * scored  # but every ending scored again
    assert expert.work_units(2, memo) == (2 * expert.TURN_UNITS + computed
                                          + 2 * scored / expert.ENDINGS_PER_UNIT)


def test_a_search_past_its_work_cap_stops_mid_round_and_drops_that_round(monkeypatch):
    """Work is checked after every sample, not only at the end of a round: a round of
    costly rollouts (rescues for a seat with many Rush Tokens) once ran a decision to three
    times its planned work. Past WORK_CAP times the plan the search stops, and the cut
    round's samples are dropped, so the plans are still compared on the same decks."""
    game = _midgame(2, 3)
    seen = view(game, game.current)
    plans: list[expert.Plan] = []
    works: list[float] = []
    real_plans, real_work = expert.candidate_plans, expert.work_units

    def candidate_plans(g, style=expert.EXPERT):
        plans.extend(real_plans(g, style))
        return plans

    def work_units(turns, memo):
        works.append(real_work(turns, memo))
        return works[-1]

    monkeypatch.setattr(expert, "candidate_plans", candidate_plans)
    monkeypatch.setattr(expert, "work_units", work_units)
    searched = []
    for cap in (expert.WORK_CAP, 1e9):  # a search that stays under the cap: as without it
        monkeypatch.setattr(expert, "WORK_CAP", cap)
        plans.clear()
        best, _ = expert.search(game, seen, random.Random(1), Budget(1.0), 1.0)
        searched.append((best.label, [p.values for p in plans]))
    assert searched[0] == searched[1]
    monkeypatch.setattr(expert, "WORK_CAP", 0.3)
    plans.clear()
    works.clear()
    expert.search(game, seen, random.Random(1), Budget(1.0), 1.0)
    cap = 0.3 * expert.FULL_WORK
    assert works[-2] < cap <= works[-1]  # stopped at the first sample past the cap
    rounds = plans[0].samples  # greedy's plan is never dropped: it has every whole round
    assert rounds >= 1 and all(p.samples <= rounds for p in plans)
    assert sum(p.samples for p in plans) < len(works)  # the cut round's samples are gone


def test_the_win_chance_model_scores_only_the_table_sizes_it_helps(monkeypatch):
    """value.py's win chance for 2-player positions; 4-player ones on the margin alone
    (paired on 100 deals, the model lost 4-player games: docs/BOTS.md)."""
    from server.bots import value
    from server.rules import apply, new_game

    asked: list[int] = []
    real = value.win_chance

    def spy(game, seat):
        asked.append(game.n)
        return real(game, seat)

    monkeypatch.setattr(value, "win_chance", spy)
    for players in (2, 4):
        game = new_game(11, players, starting_player=0)
        while game.phase in ("placement", "starting_cup"):
            apply(game, greedy.act(game))
        rollout.finish_turn(game)
        expert.evaluate(game, 0)
    assert asked == [2]


def test_the_expert_takes_its_tiles_in_its_order_and_no_more_than_max_tiles():  # R-UPG
    game = _midgame(6, 0)
    while game.phase != UPGRADE:  # a turn that starts with three completed cards
        rollout.finish_turn(game)
    player = game.players[game.current]
    player.completed = list(range(40, 52))  # cards enough for every tile
    taken = []
    for _ in range(len(player.upgrades)):
        action = expert.upgrade_action(game)
        if action["type"] == "skip_upgrade":
            break
        taken.append(action["tile"])
        player.upgrades[UPGRADE_INDEX[action["tile"]]] = True
    assert taken == list(expert.UPGRADE_PREFERENCE[:expert.MAX_TILES])
    assert expert.upgrade_action(game) == {"type": "skip_upgrade"}


def test_rollouts_can_play_a_closing_game_to_its_end(monkeypatch):  # R-END-DECK
    game = _midgame(8, 4, players=4)
    seat = game.current
    past_horizon = expert.HORIZON + 1
    game.closed = True  # the token flipped: the round's last turns end the game
    assert not expert._rolls_on(game, seat, past_horizon)  # END_DECK off: stop at our turn
    monkeypatch.setattr(expert, "END_DECK", 0)
    assert expert._rolls_on(game, seat, past_horizon)
    assert not expert._rolls_on(game, seat, past_horizon + expert.END_TURNS)
    game.closed = False
    monkeypatch.setattr(expert, "END_DECK", len(game.deck) - 1)
    assert not expert._rolls_on(game, seat, past_horizon)  # the deck still holds too many
    monkeypatch.setattr(expert, "END_DECK", len(game.deck))
    assert expert._rolls_on(game, seat, past_horizon)


def test_the_chance_of_staying_ahead_reads_every_opponents_standing():
    game = _midgame(8, 4, players=4)
    for player in game.players:  # four equal standings
        player.completed, player.penalties, player.rush = [], [], 0
        player.tabs = [[], [], [], []]
        player.cups = [[], [], []]

    def chance() -> float:
        return expert._chance_ahead([expert.standing(p) for p in game.players], 0, 2.0)

    assert chance() == 0.125
    game.players[0].completed = list(range(10))  # ten points ahead of all three
    far_ahead = chance()
    game.players[2].completed = list(range(20, 30))  # level with one of them
    level_with_one = chance()
    assert far_ahead > 0.98 and 0.49 < level_with_one < 0.5


def test_rush_plans_spend_tokens_on_extra_steps_greedy_would_not_take(monkeypatch):  # R-MOVE
    """(expert-1's plans: the rush moves follow the move plans, no other pours.)"""
    game = _midgame(3, 6, players=4)
    game.players[game.current].rush = 2
    monkeypatch.setattr(expert, "RUSH_ENDINGS", 0)
    plain = expert.candidate_plans(game, expert.EXPERT_1)
    assert all(sum(a["type"] == "step" for a in p.actions) <= 3 for p in plain)
    monkeypatch.setattr(expert, "RUSH_ENDINGS", 3)
    with_rush = expert.candidate_plans(game, expert.EXPERT_1)
    assert [p.actions for p in with_rush[: len(plain)]] == [p.actions for p in plain]
    extra = with_rush[len(plain):]
    assert len(extra) == 3
    for plan in extra:  # one or two steps past the three free ones, each a token
        assert sum(a["type"] == "step" for a in plan.actions) in (4, 5)
        assert "spend" in plan.label
    two_players = _midgame(3, 6)  # expert-1 has none at 2 players; the expert has them
    two_players.players[two_players.current].rush = 2
    offered = [p.actions for p in expert.candidate_plans(two_players, expert.EXPERT_1)]
    paying = expert.candidate_plans(two_players, expert.EXPERT)
    assert [p for p in paying if "spend" in p.label and p.actions not in offered]
    monkeypatch.setattr(expert, "RUSH_ENDINGS", 0)
    assert [p.actions for p in expert.candidate_plans(two_players, expert.EXPERT_1)] == offered


def test_our_rollout_turns_pay_for_steps_only_at_the_tables_where_we_spend_tokens():
    four, two = _midgame(1, 2, players=4), _midgame(1, 2)
    assert expert.own_rush(four) == expert.own_rush(four, expert.EXPERT_1) == expert.RUSH_ROLLOUT
    assert expert.RUSH_ROLLOUT > 0
    assert expert.own_rush(two) == expert.RUSH_ROLLOUT  # the expert pays at 2 players too
    assert expert.own_rush(two, expert.EXPERT_1) == expert.OWN_RUSH == 0  # expert-1 does not

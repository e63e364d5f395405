"""The penalty race (R-END-PEN): when the orders on tab 4 would bring the fifth penalty,
the expert also considers moves that serve them, Rush Tokens and emptied cups included."""

from __future__ import annotations

from dataclasses import replace

from server.bots import endgame, expert, greedy, rollout
from server.rules import apply, new_game
from server.rules.data import PENALTY_LIMIT
from server.rules.state import MOVE, OVER, PLACEMENT, STARTING_CUP


def _risky_turn_greedy_loses(first_seed: int = 0):
    """The first turn start (2 players, greedy play) where greedy's own turn takes the
    fifth penalty though a rescue exists."""
    for seed in range(first_seed, first_seed + 40):
        game = new_game(seed, 2, starting_player=seed % 2)
        while game.phase in (PLACEMENT, STARTING_CUP):
            apply(game, greedy.act(game))
        while game.phase != OVER:
            if endgame.at_risk(game):
                after = game.clone()
                rollout.finish_turn(after)
                if len(after.players[game.current].penalties) >= PENALTY_LIMIT:
                    return game
            rollout.finish_turn(game)
    raise AssertionError("no such turn in 40 seeded games")


def _penalties_after(game, actions) -> int:
    g = game.clone()
    seat = g.current
    for action in actions:
        apply(g, action)  # every planned action is legal
    return len(g.players[seat].penalties)


def test_at_risk_counts_penalties_and_the_orders_on_tab_4():  # R-END-2, R-END-PEN
    game = _risky_turn_greedy_loses()
    player = game.players[game.current]
    assert len(player.penalties) + len(player.tabs[3]) >= PENALTY_LIMIT
    player.tabs[3] = []
    assert not endgame.at_risk(game)


def test_a_rescue_plan_keeps_the_penalties_below_the_limit_where_greedys_does_not():
    game = _risky_turn_greedy_loses()
    found = endgame.rescues(game)
    assert found and all(r.saved >= 1 for r in found)
    assert found == sorted(found, key=lambda r: (-r.saved, r.rush, -r.value))
    plans = expert.candidate_plans(game)
    rescue_plans = [p for p in plans if "from tab 4" in p.label]
    assert rescue_plans
    assert _penalties_after(game, plans[0].actions) >= PENALTY_LIMIT  # greedy's own plan
    best = min(_penalties_after(game, p.actions) for p in rescue_plans)
    assert best < PENALTY_LIMIT
    assert all(p.actions[-1]["type"] == "end_turn" for p in rescue_plans)


def test_no_rescue_plans_when_the_limit_is_not_in_reach():
    game = _risky_turn_greedy_loses()
    game.players[game.current].penalties = []
    assert not endgame.at_risk(game)
    assert not [p for p in expert.candidate_plans(game) if "from tab 4" in p.label]


def test_our_rollout_turns_rescue_too_and_the_work_is_counted():
    game = _risky_turn_greedy_loses()
    seat = game.current
    memo = greedy.AllocationMemo()
    g = game.clone()
    expert.own_turn(g, memo)
    assert g.current != seat or g.phase == OVER  # the whole turn was played
    assert len(g.players[seat].penalties) < PENALTY_LIMIT
    assert memo.steps > 0  # counted in expert.work_units, so the budget bounds it
    assert expert.work_units(1, memo) > expert.TURN_UNITS


def test_a_rescue_never_pours_a_token_the_hand_lacks():  # R-POUR
    for first_seed in (0, 7, 19):
        game = _risky_turn_greedy_loses(first_seed)
        for plan in expert.candidate_plans(game):
            _penalties_after(game, plan.actions)  # apply() refuses an illegal pour


def test_other_seats_rescue_in_the_new_experts_rollouts_and_greedy_would_not():
    # R-END-PEN: the race is judged against an opponent that rescues (issue 48).
    game = _risky_turn_greedy_loses()
    seat = game.current
    rescuing, blind = game.clone(), game.clone()
    expert._opponent_turn(rescuing, greedy.AllocationMemo(), expert.EXPERT)
    expert._opponent_turn(blind, greedy.AllocationMemo(), expert.EXPERT_1)
    assert expert.EXPERT.opponent_rescues and not expert.EXPERT_1.opponent_rescues
    assert len(rescuing.players[seat].penalties) < PENALTY_LIMIT
    assert len(blind.players[seat].penalties) >= PENALTY_LIMIT  # greedy's turn


def _turn_where_rush_serves_more():
    """The first turn start (2 players, greedy rollout play, no Rush) where greedy's move
    with up to 2 Rush-paid steps serves more orders than its free move (R-MOVE)."""
    for seed in range(40):
        game = new_game(seed, 2, starting_player=seed % 2)
        while game.phase in (PLACEMENT, STARTING_CUP):
            apply(game, greedy.act(game))
        while game.phase != OVER:
            if game.phase == MOVE and game.players[game.current].rush:
                free = greedy.best_endings(game, 1, 0)[0]
                rushed = greedy.best_endings(game, 1, 2)[0]
                if rushed.served > free.served and not endgame.at_risk(game):
                    return game
            rollout.finish_turn(game, max_rush=0)
    raise AssertionError("no such turn in 40 seeded games")


def _completed(game, seat: int) -> int:
    player = game.players[seat]
    return len(player.completed) + 3 * sum(player.upgrades)  # R-UPG discards three


def test_rollout_rush_lets_every_seat_pay_for_steps_to_serve_more():
    # Issue 48, third session: the real bots serve more a turn than Rush-free rollouts.
    game = _turn_where_rush_serves_more()
    seat = game.current
    assert expert.EXPERT_1.rollout_rush is None  # expert-1's rollouts are unchanged
    paying = replace(expert.EXPERT, rollout_rush=2)
    free = replace(expert.EXPERT, rollout_rush=0)
    served = []
    for style in (free, paying):
        g = game.clone()
        expert._opponent_turn(g, greedy.AllocationMemo(), style)
        served.append(_completed(g, seat) - _completed(game, seat))
    assert served[1] > served[0]

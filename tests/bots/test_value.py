"""The expert's win-chance model (value.py): the penalty race (R-END-PEN) and the margin
(R-SCORE) move it the way the rules say they should."""

from __future__ import annotations

from server.bots import value
from server.rules.state import OVER

from .test_strong_eval import _midgame


def test_features_match_the_weights_for_every_fitted_table_size():
    for n in value.WEIGHTS:
        assert len(value.WEIGHTS[n]) == len(value.FEATURES)
    game = _midgame(1, 4)
    assert len(value.features(game, game.current)) == len(value.FEATURES)


def test_a_penalty_more_lowers_the_chance_and_a_point_more_raises_it():  # R-END-PEN, R-SCORE
    game = _midgame(4, 6)
    seat = game.current
    before = value.win_chance(game, seat)
    assert before is not None and 0.0 < before < 1.0
    worse = game.clone()
    worse.players[seat].penalties.append(worse.players[seat].tabs[0].pop())
    better = game.clone()
    better.players[seat].completed.append(better.players[seat].tabs[0].pop())
    assert value.win_chance(worse, seat) < before < value.win_chance(better, seat)


def test_the_opponents_penalties_are_good_for_us():  # R-END-PEN
    game = _midgame(6, 6)
    seat = game.current
    other = 1 - seat
    before = value.win_chance(game, seat)
    game.players[other].penalties.extend(game.players[other].tabs[0][:1])
    game.players[other].tabs[0] = game.players[other].tabs[0][1:]
    assert value.win_chance(game, seat) > before


def test_a_table_size_without_weights_has_no_estimate():
    game = _midgame(2, 2)
    assert game.phase != OVER
    game.players.append(game.players[0])  # three seats: no fitted weights
    assert 3 not in value.WEIGHTS
    assert value.win_chance(game, 0) is None


def test_the_margin_is_the_rules_own_score():  # R-SCORE: one owner of the formula
    from server.rules import score

    game = _midgame(2, 8)
    seat = game.current
    game.players[seat].upgrades[0] = True
    game.players[seat].penalties.append(game.players[seat].tabs[0].pop())
    totals = [score(p)["total"] for p in game.players]
    other = max((i for i in range(game.n) if i != seat), key=lambda i: (totals[i], -i))
    margin = value.features(game, seat)[value.FEATURES.index("margin")]
    assert margin == totals[seat] - totals[other]
    assert not hasattr(value, "points")  # no second copy of the scoring rule

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


def _race_table(ours: list[int], theirs: list[int], penalties: tuple[int, int]):
    """A 2-player turn start for seat 0 (the starting player, to act) with these many
    orders on tabs 1-4 for each seat and these penalties; a long deck."""
    game = _midgame(3, 4)
    assert game.n == 2 and game.current == 0 == game.start
    cards = iter(range(200))
    for player, tabs, pen in zip(game.players, (ours, theirs), penalties, strict=True):
        player.tabs = [[next(cards) for _ in range(n)] for n in tabs]
        player.penalties = [next(cards) for _ in range(pen)]
    game.deck = list(range(40))
    return game


def test_the_side_holding_more_orders_than_it_serves_loses_the_service_race():
    # R-END-1 (2 players: each order served deals the other a card), R-END-2 (orders
    # pushed off tab 4 become penalties), R-END-PEN (five close the game).
    game = _race_table([3, 3, 3, 2], [2, 1, 2, 1], (2, 2))  # 11 orders against 6
    # Ours at 1.9 a turn: 2 penalties + 11 orders due - 1.9 * 4 = 5.4 by the end of our
    # fourth turn; theirs 2 + 6 + 2.9 * 2 arriving - 1.9 * 6 = 2.4 by their sixth.
    assert value.fifth_turn(game.players[0], 1.9, 2.9, 6) == 4
    assert value.fifth_turn(game.players[1], 1.9, 2.9, 6) is None
    assert value.race(game, 0, 1.9, 6) == -1 and value.race(game, 1, 1.9, 6) == 1
    game.players[0].tabs, game.players[1].tabs = game.players[1].tabs, game.players[0].tabs
    assert value.race(game, 0, 1.9, 6) == 1
    assert value.race(_race_table([1, 1, 1, 1], [1, 1, 1, 1], (1, 1)), 0, 1.9, 6) == 0


def test_the_race_follows_the_closing_rule_and_the_deck():  # R-END-PEN, R-END-DECK
    # Both reach five on their first turn: the starting player closes, the other has its
    # last turn (R-END, 2 players) and reaches five too: nobody alone.
    game = _race_table([0, 0, 0, 3], [0, 0, 0, 3], (4, 4))
    assert value.race(game, 0, 1.9, 6) == 0
    # With the second player to act, its fifth ends the game at once: it alone.
    game.current = 1
    assert value.race(game, 1, 1.9, 6) == -1 and value.race(game, 0, 1.9, 6) == 1
    # A deck that runs out first (5.8 cards a round) ends the game before the race.
    game = _race_table([3, 3, 3, 2], [2, 1, 2, 1], (0, 0))
    assert value.race(game, 0, 1.9, 6) == -1
    game.deck = game.deck[:5]
    assert value.race(game, 0, 1.9, 6) == 0
    game.deck, game.closed = list(range(40)), True
    assert value.race(game, 0, 1.9, 6) == 0

"""Tournament pairing and standings (server/tournaments/pairing.py): pure functions, checked
against hand computations. Points per place: k-1 .. 0 at a table of k, ties split; kept in
halves."""

from __future__ import annotations

import itertools
import random

from server.tournaments.pairing import (
    Played,
    bye_points,
    meetings,
    place_points,
    round_robin,
    standings,
    swiss,
    table_sizes,
)


def test_points_per_place_four_three_two_players() -> None:
    assert place_points([1, 2, 3, 4]) == [6, 4, 2, 0]  # 3/2/1/0
    assert place_points([2, 1, 3]) == [2, 4, 0]  # 2/1/0, by seat
    assert place_points([2, 1]) == [0, 2]  # 1/0


def test_tied_places_split_the_points_they_cover() -> None:
    assert place_points([1, 1, 3, 4]) == [5, 5, 2, 0]  # (3+2)/2 = 2.5 each
    assert place_points([1, 2, 2, 2]) == [6, 2, 2, 2]  # (2+1+0)/3 = 1
    assert place_points([1, 1, 1, 1]) == [3, 3, 3, 3]  # 1.5 each
    assert place_points([1, 1]) == [1, 1]
    for k in (2, 3, 4):  # whatever the ties, a table hands out k(k-1)/2 points
        for places in itertools.product(range(1, k + 1), repeat=k):
            if sorted(places)[0] == 1:
                assert sum(place_points(list(places))) == k * (k - 1)


def test_a_bye_scores_an_average_table() -> None:
    assert [bye_points(k) for k in (2, 3, 4)] == [1, 2, 3]  # 0.5, 1, 1.5


def test_tables_are_as_equal_as_the_field_allows() -> None:
    assert table_sizes(8, 4) == [4, 4]
    assert table_sizes(9, 4) == [3, 3, 3]
    assert table_sizes(10, 4) == [4, 3, 3]
    assert table_sizes(5, 4) == [3, 2]
    assert table_sizes(7, 2) == [2, 2, 2, 1]  # the only kind of bye: 2-player tables, odd field
    assert table_sizes(4, 3) == [2, 2]


def test_the_first_swiss_round_seats_by_entry_order() -> None:
    assert swiss(list(range(1, 9)), 4, []) == [[1, 2, 3, 4], [5, 6, 7, 8]]


def test_swiss_avoids_repeat_tablemates_where_possible() -> None:
    first = [Played(1, (1, 2, 3, 4), (6, 4, 2, 0), (1, 2, 3, 4)),
             Played(1, (5, 6, 7, 8), (6, 4, 2, 0), (1, 2, 3, 4))]
    order = [s.player for s in standings(list(range(1, 9)), first)]
    assert order == [1, 5, 2, 6, 3, 7, 4, 8]
    tables = swiss(order, 4, first)
    # Two tables of four from two tables of four: each must hold two players of each first
    # table (two repeated pairs a table, the fewest possible); top down: 1 5 2 6, 3 7 4 8.
    assert tables == [[1, 5, 2, 6], [3, 7, 4, 8]]
    met = meetings(first + [Played(2, tuple(t), (0,) * 4, (1,) * 4) for t in tables])
    assert sorted(met.values()).count(2) == 4
    # with 12 players a repeat can be avoided altogether
    first = [Played(1, tuple(range(i, i + 4)), (6, 4, 2, 0), (1, 2, 3, 4)) for i in (1, 5, 9)]
    order = [s.player for s in standings(list(range(1, 13)), first)]
    tables = swiss(order, 4, first)
    assert tables[0] == [1, 5, 9, 2] and max(meetings(
        first + [Played(2, tuple(t), (0,) * 4, (1,) * 4) for t in tables]).values()) <= 2


def test_the_bye_goes_to_the_lowest_without_one() -> None:
    played = [Played(1, (5,), (1,), (1,))]
    assert swiss([1, 2, 3, 4, 5], 2, played)[-1] == [4]
    assert swiss([1, 2, 3], 2, [])[-1] == [3]


def test_standings_tie_breaks_points_buchholz_firsts_entry() -> None:
    # R1: A beats B; C beats D.  R2: A beats C; B and D tie (1/1 halves each).
    a, b, c, d = 1, 2, 3, 4
    played = [Played(1, (a, b), (2, 0), (1, 2)), Played(1, (c, d), (2, 0), (1, 2)),
              Played(2, (a, c), (2, 0), (1, 2)), Played(2, (b, d), (1, 1), (1, 1))]
    rows = standings([a, b, c, d], played)
    # points: A 4, C 2, B 1, D 1 (halves); Buchholz: B = A+D = 5, D = C+B = 3
    assert [(r.player, r.points, r.buchholz, r.firsts) for r in rows] == [
        (a, 4, 3, 2), (c, 2, 5, 1), (b, 1, 5, 1), (d, 1, 3, 1)]
    assert [r.rank for r in rows] == [1, 2, 3, 4]


def test_round_robin_with_two_player_tables_meets_everyone_once() -> None:
    for n in (4, 5, 8):
        rounds = round_robin(list(range(n)), 2)
        assert len(rounds) == (n - 1 if n % 2 == 0 else n)
        pairs = [tuple(sorted(t)) for r in rounds for t in r if len(t) == 2]
        assert len(pairs) == len(set(pairs)) == n * (n - 1) // 2
        for r in rounds:  # everyone once a round
            assert sorted(p for t in r for p in t) == list(range(n))


def test_round_robin_with_bigger_tables_meets_everyone() -> None:
    for n, size in ((8, 4), (9, 3), (6, 3)):
        rounds = round_robin(list(range(n)), size)
        met = meetings(Played(0, tuple(t), (0,) * len(t), (1,) * len(t))
                       for r in rounds for t in r)
        assert len(met) == n * (n - 1) // 2
        assert len(rounds) <= n - 1


def test_every_swiss_round_seats_each_player_once() -> None:
    rng = random.Random(3)
    players = list(range(1, 31))
    played: list[Played] = []
    for number in range(1, 6):
        order = [s.player for s in standings(players, played)]
        tables = swiss(order, 4, played)
        assert sorted(p for t in tables for p in t) == players
        for t in tables:
            places = [rng.randint(1, len(t)) for _ in t]
            places = [p - min(places) + 1 for p in places]
            played.append(Played(number, tuple(t), tuple(place_points(places)), tuple(places)))

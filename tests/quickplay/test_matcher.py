"""The quick-play matcher (server/quickplay/matcher.py): who sits with whom, and that
nobody is ever seated twice. Ratings are the shown ones (1500 for a new account)."""

from __future__ import annotations

import random

from server.quickplay.matcher import (
    SIZES,
    WINDOW_START,
    Seeker,
    Table,
    pair,
    window,
)


def s(id: int, size: int = 2, *, rating: int = 1500, waited: float = 0.0, rated: bool = True,
      mode: str = "realtime", bots_after: float | None = None, join: int | None = None) -> Seeker:
    sizes = SIZES if size == 0 else (size,)
    return Seeker(id, sizes, mode, rated, rating, waited, bots_after, join)


def test_two_who_fit_sit_together() -> None:
    assert pair([s(1, waited=3), s(2)]) == [Table((1, 2))]


def test_a_table_waits_until_it_can_be_filled() -> None:
    assert pair([s(1, 4), s(2, 4), s(3, 4)]) == []
    assert pair([s(1, 4, waited=9), s(2, 4, waited=5), s(3, 4), s(4, 4)]) == [Table((1, 2, 3, 4))]


def test_modes_kinds_and_sizes_do_not_mix() -> None:
    assert pair([s(1), s(2, mode="turn_based")]) == []
    assert pair([s(1), s(2, rated=False)]) == []
    assert pair([s(1, 2), s(2, 3)]) == []


def test_any_size_takes_the_largest_table_that_can_be_filled_now() -> None:
    seated = pair([s(1, 0, waited=5), s(2, 3), s(3, 0), s(4, 2)])
    assert seated == [Table((1, 2, 3))]  # three accept 3; the 2-only seeker waits


def test_rated_closest_rating_first() -> None:
    seated = pair([s(1, 3, rating=1500, waited=5), s(2, 3, rating=1580),
                   s(3, 3, rating=1450), s(4, 3, rating=1530)])
    assert seated == [Table((1, 4, 3))]  # 30 and 50 away; 80 is left out


def test_the_rating_window_widens_with_the_wait() -> None:
    far = [s(1, rating=1500, waited=0), s(2, rating=1800, waited=0)]
    assert pair(far) == []  # 300 apart, windows of 100
    assert window(19) == WINDOW_START + 190 < 300
    assert pair([s(1, rating=1500, waited=19), s(2, rating=1800)]) == []
    assert window(20) == 300
    assert pair([s(1, rating=1500, waited=20), s(2, rating=1800)]) == [Table((1, 2))]
    # the wider window of the two counts: the newcomer is seated with the one who waited
    assert pair([s(1, rating=1800), s(2, rating=1500, waited=25)]) == [Table((2, 1))]


def test_casual_games_ignore_ratings_and_seat_the_longest_waiting() -> None:
    seated = pair([s(1, rated=False, rating=0, waited=9), s(2, rated=False, rating=2400),
                   s(3, rated=False, rating=900, waited=4)])
    assert seated == [Table((1, 3))]


def test_bots_fill_a_table_after_the_wait_asked_for() -> None:
    assert pair([s(1, 4, waited=29, bots_after=30), s(2, 4)]) == []
    assert pair([s(1, 4, waited=30, bots_after=30), s(2, 4)]) == [Table((1, 2), bots=2)]
    # any size: the most humans, then the fewest bots
    assert pair([s(1, 0, waited=31, bots_after=30)]) == [Table((1,), bots=1)]


def test_a_seeker_who_joined_a_seek_sits_with_it_whatever_the_ratings() -> None:
    seated = pair([s(1, 2, rating=1500, waited=9), s(2, 2, rating=1510, waited=5),
                   s(3, 2, rating=2300, join=1)])
    assert seated == [Table((1, 3)), ]  # the joiner first; 2 waits for someone else


def test_nobody_is_seated_twice_and_every_table_fits() -> None:
    """Random queues (seeded): each seeker in at most one table; every table's seekers
    share mode and kind, accept its size, and (rated, no joining) are within a window."""
    rng = random.Random(46)
    for _ in range(300):
        seekers = [s(i, rng.choice((0, 2, 3, 4)), rating=rng.randint(900, 2100),
                     waited=rng.uniform(0, 60), rated=rng.random() < 0.5,
                     mode=rng.choice(("realtime", "turn_based")),
                     bots_after=rng.choice((None, 10.0, 30.0)))
                   for i in range(1, rng.randint(2, 40))]
        by_id = {x.id: x for x in seekers}
        tables = pair(seekers)
        seated = [i for t in tables for i in t.seekers]
        assert len(seated) == len(set(seated))
        for t in tables:
            members = [by_id[i] for i in t.seekers]
            assert len({(m.mode, m.rated) for m in members}) == 1
            assert all(t.size in m.sizes for m in members)
            assert 2 <= t.size <= 4
            if t.bots:
                assert members[0].bots_after is not None
                assert members[0].waited >= members[0].bots_after
            if members[0].rated:
                first = members[0]
                for m in members[1:]:
                    assert abs(m.rating - first.rating) <= max(window(first.waited),
                                                               window(m.waited))

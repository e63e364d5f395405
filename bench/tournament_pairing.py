"""Tournament pairing figures (issue 46): the time to pair a round of a tournament of N
players (200 by default), with the pure functions of server/tournaments/pairing.py, over
random results (a seeded generator):

1. each Swiss round at 4-, 3- and 2-player tables (the standings, then the tables), median
   and worst over the rounds, with the number of repeated tablemates it could not avoid;
2. a whole round-robin schedule (2-player tables: the circle method; 4-player tables: the
   Swiss filling until everyone met) for the largest field a round robin takes
   (ROUND_ROBIN_MAX) and a smaller one.

    .venv/bin/python bench/tournament_pairing.py [--players 200] [--rounds 9] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.tournaments.pairing import (  # noqa: E402
    ROUND_ROBIN_MAX,
    Played,
    meetings,
    place_points,
    round_robin,
    standings,
    swiss,
)


def swiss_rounds(players: int, size: int, rounds: int, rng: random.Random) -> None:
    entrants = list(range(1, players + 1))
    played: list[Played] = []
    times, repeats = [], 0
    for number in range(1, rounds + 1):
        start = time.perf_counter()
        order = [s.player for s in standings(entrants, played)]
        tables = swiss(order, size, played)
        times.append(time.perf_counter() - start)
        met = meetings(played)
        repeats += sum(met.get((min(a, b), max(a, b)), 0) > 0
                       for t in tables for i, a in enumerate(t) for b in t[i + 1:])
        for table in tables:
            if len(table) == 1:
                played.append(Played(number, tuple(table), (size - 1,), (1,)))
                continue
            places = [rng.randint(1, len(table)) for _ in table]
            low = min(places)
            places = [p - low + 1 for p in places]
            played.append(Played(number, tuple(table), tuple(place_points(places)),
                                 tuple(places)))
    print(f"Swiss, {players} players at {size}-player tables, {rounds} rounds: pairing a round "
          f"median {statistics.median(times) * 1000:.2f} ms, worst {max(times) * 1000:.2f} ms; "
          f"{repeats} repeated tablemate pairs in all")


def schedule(players: int, size: int) -> None:
    start = time.perf_counter()
    rounds = round_robin(list(range(players)), size)
    took = time.perf_counter() - start
    print(f"round robin, {players} players at {size}-player tables: {len(rounds)} rounds "
          f"scheduled in {took * 1000:.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    for size in (4, 3, 2):
        swiss_rounds(args.players, size, args.rounds, rng)
    for players in (8, ROUND_ROBIN_MAX):
        for size in (2, 4):
            schedule(players, size)


if __name__ == "__main__":
    main()

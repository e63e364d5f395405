"""Rules engine speed: random legal games per second on one core, for 2, 3 and 4 players.

    .venv/bin/python bench/engine.py              # games/s and actions/s per player count
    .venv/bin/python bench/engine.py --profile    # cProfile over 4-player games, top 15

Games are played exactly like `coffee-rush simulate` (server.simulate.play_random_game):
public API only, uniform choice among legal actions. Each player count plays `--games`
games or stops at `--seconds`, whichever comes first. One process, so one core.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.simulate import play_random_game  # noqa: E402


def bench(players: int, games: int, seconds: float, seed: int) -> tuple[int, int, float, float]:
    """Play until `games` are done or `seconds` have passed.

    Returns (games, actions, wall seconds, CPU seconds). Rates are per CPU second, which
    stays meaningful when other processes share the machine.
    """
    rng = random.Random(seed)
    played = actions = 0
    began, cpu_began = time.perf_counter(), time.process_time()
    elapsed = 0.0
    while played < games and elapsed < seconds:
        actions += play_random_game(players, rng).version
        played += 1
        elapsed = time.perf_counter() - began
    return played, actions, elapsed, time.process_time() - cpu_began


def profile(games: int, seed: int) -> str:
    rng = random.Random(seed)
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(games):
        play_random_game(4, rng)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).strip_dirs().sort_stats("tottime").print_stats(15)
    return out.getvalue()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000, help="games per player count")
    parser.add_argument("--seconds", type=float, default=10.0, help="time box per count")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="profile 4-player games")
    args = parser.parse_args()

    if args.profile:
        games = min(args.games, 1000)
        print(f"cProfile over {games} random 4-player games (seed {args.seed}), by tottime:")
        print(profile(games, args.seed))
        return 0

    print(f"python {sys.version.split()[0]}, random legal play, one core, seed {args.seed}")
    print(f"{'players':>7} {'games':>7} {'wall s':>7} {'cpu s':>7} {'games/s':>9} "
          f"{'actions/s':>10} {'actions/game':>13}   (rates per CPU second)")
    for players in (2, 3, 4):
        played, actions, wall, cpu = bench(players, args.games, args.seconds, args.seed)
        cpu = max(cpu, 1e-9)
        print(f"{players:>7} {played:>7} {wall:>7.2f} {cpu:>7.2f} {played / cpu:>9.1f} "
              f"{actions / cpu:>10.0f} {actions / played:>13.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

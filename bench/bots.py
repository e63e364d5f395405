"""Bot strength: the expert against greedy, 2-player and 4-player (two seats each).

    .venv/bin/python bench/bots.py                         # 400 games each, full budget
    .venv/bin/python bench/bots.py --games 200 --budget 0.3 --out bots.json

Runs `coffee-rush tournament`'s code (server/bots/tournament.py) for each table size and
writes one JSON object: per size the tournament report (win rates with 95% Wilson
intervals, mean scores and penalties, end reasons, CPU seconds per decision) and whether
the expert met its targets (2 players: wins >= 75%; 4 players: >= 65%). Budgets are
counted work, so a seed gives the same games on any machine; only the CPU figures and the
run time depend on the machine. Run it under `nice -n 19` on a shared machine: 400 games
at the full budget take hours of CPU.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.bots.tournament import report, run, schedule  # noqa: E402

TARGETS = {2: 0.75, 4: 0.65}  # expert's share of the games' wins against greedy


def tournament(bots: list[str], players: int, games: int, seed: int, budget: float,
               workers: int) -> dict:
    args = argparse.Namespace(players=players, seed=seed, budget=budget)
    began = time.perf_counter()
    outcomes = run(schedule(bots, games, players, seed, budget), workers)
    return report(args, bots, outcomes, time.perf_counter() - began)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per table size")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4], choices=(2, 3, 4))
    parser.add_argument("--budget", type=float, default=1.0, help="share of the full work")
    parser.add_argument("--seed", type=int, default=2027)
    parser.add_argument("--bots", default="expert,greedy")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", type=Path, help="write the JSON here (default: stdout)")
    args = parser.parse_args()
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    result: dict = {"bots": bots, "budget": args.budget, "seed": args.seed, "tables": {}}
    for players in args.players:
        rep = tournament(bots, players, args.games, args.seed, args.budget, args.workers)
        row = rep["pairings"][0]["rows"][0]
        target = TARGETS.get(players)
        rep["target"] = None if target is None else {
            "bot": row["bot"], "win_rate": target, "met": row["win_rate"] >= target,
            "met_at_95": row["ci95"][0] >= target,
        }
        result["tables"][str(players)] = rep
    text = json.dumps(result, indent=2)
    if args.out:
        args.out.write_text(text + "\n")
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

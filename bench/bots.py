"""Bot strength: the expert against greedy, 2-player and 4-player (two seats each).

    .venv/bin/python bench/bots.py                         # 400 games each, full budget
    .venv/bin/python bench/bots.py --games 200 --budget 0.3 --out bots.json

Runs `coffee-rush tournament`'s code (server/bots/tournament.py) for each table size and
writes one JSON object: per size the tournament report (win rates with 95% Wilson
intervals, mean scores and penalties, end reasons, CPU seconds per decision) and whether
the expert met its targets (2 players: wins >= 75%; 4 players: >= 65%). Budgets are
counted work, so a seed gives the same games on any machine; only the CPU figures and the
run time depend on the machine. Run it under `nice -n 19` on a shared machine: 400 games
at the full budget take hours of CPU. `--log games.jsonl` keeps each game as it ends;
`--log games.jsonl --from-log` reports what a run still going (or cut short) has so far.
`--interleave` (with `--log`) plays the table sizes' games in turns, one of each, and skips
the games the log already holds: a run cut short has the same share of each size's
schedule (its first games, whole blocks of deals), and starting it again goes on.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from itertools import zip_longest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.bots.tournament import report, run, schedule  # noqa: E402

TARGETS = {2: 0.75, 4: 0.65}  # expert's share of the games' wins against greedy


def tournament(bots: list[str], players: int, games: int, seed: int, budget: float,
               workers: int, log: Path | None = None) -> dict:
    args = argparse.Namespace(players=players, seed=seed, budget=budget)
    began = time.perf_counter()
    tasks = schedule(bots, games, players, seed, budget)
    if log is None:
        outcomes = run(tasks, workers)
    else:
        with log.open("a") as out:
            def keep(o: dict) -> None:
                out.write(json.dumps({"players": players, "budget": budget, "seed": seed,
                                      **o}) + "\n")
                out.flush()
            outcomes = run(tasks, workers, keep)
    return report(args, bots, outcomes, time.perf_counter() - began)


def interleaved(bots: list[str], sizes: list[int], games: int, seed: int, budget: float,
                log: Path) -> None:
    """Play every size's schedule in turns (one game of each), keeping each game in the
    log as it ends; games the log already holds are not played again."""
    done = set()
    if log.exists():
        done = {(o["players"], o["index"])
                for o in map(json.loads, log.read_text().splitlines()) if o}
    queues = [[(players, t) for t in schedule(bots, games, players, seed, budget)
               if (players, t.index) not in done] for players in sizes]
    order = [pair for turn in zip_longest(*queues) for pair in turn if pair is not None]
    with log.open("a") as out:
        for players, task in order:
            (o,) = run([task], 1)
            out.write(json.dumps({"players": players, "budget": budget, "seed": seed, **o})
                      + "\n")
            out.flush()


def from_log(bots: list[str], log: Path, seed: int) -> dict[int, dict]:
    """The reports of the games a log kept so far (a run still going, or cut short)."""
    by_size: dict[int, list[dict]] = {}
    for line in log.read_text().splitlines():
        if line.strip():
            o = json.loads(line)
            by_size.setdefault(o["players"], []).append(o)
    reps = {}
    for players, outcomes in sorted(by_size.items()):
        first = outcomes[0]
        # A game's "seed" in the log is its deal's; the report names the tournament's.
        args = argparse.Namespace(players=players, seed=seed, budget=first["budget"])
        reps[players] = report(args, bots, sorted(outcomes, key=lambda o: o["index"]), 0.0)
    return reps


def _with_target(rep: dict, players: int) -> dict:
    row = rep["pairings"][0]["rows"][0]
    target = TARGETS.get(players)
    rep["target"] = None if target is None else {
        "bot": row["bot"], "win_rate": target, "met": row["win_rate"] >= target,
        "met_at_95": row["ci95"][0] >= target,
    }
    return rep


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per table size")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4], choices=(2, 3, 4))
    parser.add_argument("--budget", type=float, default=1.0, help="share of the full work")
    parser.add_argument("--seed", type=int, default=2027)
    parser.add_argument("--bots", default="expert,greedy")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", type=Path, help="write the JSON here (default: stdout)")
    parser.add_argument("--log", type=Path,
                        help="append every game's outcome here as it ends (JSON lines)")
    parser.add_argument("--from-log", action="store_true",
                        help="play nothing: report the games --log holds so far")
    parser.add_argument("--interleave", action="store_true",
                        help="with --log: one game of each size in turns, skipping those "
                             "the log holds; then report from the log")
    args = parser.parse_args()
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    result: dict = {"bots": bots, "budget": args.budget, "seed": args.seed, "tables": {}}
    if args.interleave:
        if args.log is None:
            parser.error("--interleave needs --log")
        interleaved(bots, args.players, args.games, args.seed, args.budget, args.log)
    if args.from_log or args.interleave:
        if args.log is None:
            parser.error("--from-log needs --log")
        for players, rep in from_log(bots, args.log, args.seed).items():
            result["tables"][str(players)] = _with_target(rep, players)
    else:
        for players in args.players:
            rep = tournament(bots, players, args.games, args.seed, args.budget, args.workers,
                             args.log)
            result["tables"][str(players)] = _with_target(rep, players)
    text = json.dumps(result, indent=2)
    if args.out:
        args.out.write_text(text + "\n")
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""`coffee-rush tournament`: bots play each other without a server, in parallel processes.

Games come in blocks, one per rotation of the line-up: every game of a block is dealt
from the same seed and each bot moves one seat along, so each bot plays each seat (the
starting seat included) equally often on the same deals. Bots count their work instead of
timing it (budget.py), so a seeded tournament gives the same games on any machine at any
load; only the CPU figures vary.

The report has one block per pairing (the set of levels seated together in a game). A
level's "games" are the games it played in, its wins the share of those games' wins its
seats took (a win shared by tied winners is split evenly): with two seats each in a
4-player game, the two levels' win rates add up to 1. Scores and penalties are means per
seat. CPU is measured per decision, in the process that made it.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import sys
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from server.rules import Action, GameView

from .budget import Budget
from .levels import LEVELS, REFERENCE, Chooser, chooser, known
from .match import play_game

Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class Task:
    index: int
    seed: int
    lineup: tuple[str, ...]  # bot level per seat
    budget: float


@dataclass(slots=True)
class Tally:
    games: int = 0
    wins: float = 0.0
    seats: int = 0
    score: int = 0
    penalties: int = 0
    cpu: list[float] = field(default_factory=list)


def schedule(bots: list[str], games: int, players: int, seed: int, budget: float) -> list[Task]:
    seeds = random.Random(seed)
    tasks = []
    deal = 0
    for index in range(games):
        shift = index % len(bots)
        if shift == 0:
            deal = seeds.getrandbits(64)
        lineup = tuple(bots[(s + shift) % len(bots)] for s in range(players))
        tasks.append(Task(index, deal, lineup, budget))
    return tasks


def _timed(choose: Chooser, into: list[float]) -> Chooser:
    def timed(view: GameView, rng: random.Random, budget: Budget) -> Action:
        began = time.process_time()
        try:
            return choose(view, rng, budget)
        finally:
            into.append(time.process_time() - began)

    return timed


def play(task: Task) -> dict:
    """Play one scheduled game (in a worker process); return what the tally needs."""
    cpu: dict[str, list[float]] = {level: [] for level in task.lineup}
    choosers = [_timed(chooser(level), cpu[level]) for level in task.lineup]
    result = play_game(choosers, task.seed, task.budget, starting_player=0)
    return {
        "index": task.index,
        "seed": task.seed,
        "lineup": list(task.lineup),
        "scores": [s["total"] for s in result["scores"]],
        "penalties": [-s["penalties"] for s in result["scores"]],
        "winners": result["winners"],
        "reason": result["reason"],
        "cpu": cpu,
    }


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (wins may be fractional: shared wins)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # Rounded so float noise does not print as 2.8e-17 instead of 0.
    return (round(max(0.0, centre - half), 12), round(min(1.0, centre + half), 12))


def pairing(lineup: Iterable[str], bots: list[str]) -> tuple[str, ...]:
    """The levels seated together, in the order the tournament named them."""
    present = set(lineup)
    return tuple(b for b in bots if b in present)


def tally(bots: list[str], outcomes: list[dict]) -> dict[tuple[str, ...], dict[str, Tally]]:
    """Per pairing, per level."""
    out: dict[tuple[str, ...], dict[str, Tally]] = {}
    for o in outcomes:
        pair = pairing(o["lineup"], bots)
        tallies = out.setdefault(pair, {bot: Tally() for bot in pair})
        share = 1.0 / len(o["winners"])
        for bot in pair:
            tallies[bot].games += 1
            tallies[bot].cpu.extend(o["cpu"].get(bot, ()))
        for seat, bot in enumerate(o["lineup"]):
            t = tallies[bot]
            t.seats += 1
            t.score += o["scores"][seat]
            t.penalties += o["penalties"][seat]
            if seat in o["winners"]:
                t.wins += share
    return out


def cpu_figures(times: list[float]) -> dict[str, float]:
    """Mean, 95th percentile and max CPU seconds per decision."""
    if not times:
        return {"decisions": 0, "mean": 0.0, "p95": 0.0, "max": 0.0}
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]
    return {"decisions": len(ordered), "mean": round(sum(ordered) / len(ordered), 4),
            "p95": round(p95, 4), "max": round(ordered[-1], 4)}


def run(tasks: list[Task], workers: int,
        each: Callable[[dict], None] | None = None) -> list[dict]:
    """Play the tasks; `each` (optional) is called with every outcome as it comes, in
    schedule order (a long run can keep its games as it goes)."""
    outcomes: list[dict] = []
    if workers <= 1 or len(tasks) <= 1:
        played: Iterable[dict] = map(play, tasks)
        for o in played:
            outcomes.append(o)
            if each is not None:
                each(o)
        return outcomes
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        for o in pool.map(play, tasks, chunksize=1):
            outcomes.append(o)
            if each is not None:
                each(o)
    return outcomes


def report(args: argparse.Namespace, bots: list[str], outcomes: list[dict], secs: float) -> dict:
    pairings = []
    for pair, tallies in tally(bots, outcomes).items():
        games = [o for o in outcomes if pairing(o["lineup"], bots) == pair]
        reasons: dict[str, int] = {}
        for o in games:
            reasons[o["reason"]] = reasons.get(o["reason"], 0) + 1
        rows = []
        for bot in pair:
            t = tallies[bot]
            lo, hi = wilson(t.wins, t.games)
            rows.append({
                "bot": bot,
                "games": t.games,
                "seats": t.seats,
                "wins": t.wins,
                "win_rate": t.wins / t.games if t.games else 0.0,
                "ci95": [lo, hi],
                "mean_score": t.score / t.seats if t.seats else 0.0,
                "mean_penalties": t.penalties / t.seats if t.seats else 0.0,
                "cpu_per_decision": cpu_figures(t.cpu),
            })
        pairings.append({"bots": list(pair), "games": len(games), "rows": rows,
                         "end_reasons": reasons})
    reasons_all: dict[str, int] = {}
    for o in outcomes:
        reasons_all[o["reason"]] = reasons_all.get(o["reason"], 0) + 1
    return {
        "games": len(outcomes),
        "players": args.players,
        "seed": args.seed,
        "budget": args.budget,
        "pairings": pairings,
        "end_reasons": reasons_all,
        "shared_wins": "split evenly between tied winners",
        "seconds": round(secs, 1),
    }


def render(rep: dict) -> str:
    lines = [
        f"tournament: {rep['games']} games, {rep['players']} players, "
        f"budget {rep['budget']} of full work per decision, seed {rep['seed']}, "
        f"{rep['seconds']} s",
    ]
    for p in rep["pairings"]:
        lines.append(f"{' vs '.join(p['bots'])}: {p['games']} games")
        lines.append(
            f"  {'bot':<8}{'games':>6}{'wins':>8}{'win rate':>10}   {'95% CI (Wilson)':<17}"
            f"{'score':>7}{'penalties':>10}   CPU s/decision mean / p95 / max"
        )
        for r in p["rows"]:
            lo, hi = r["ci95"]
            c = r["cpu_per_decision"]
            lines.append(
                f"  {r['bot']:<8}{r['games']:>6}{r['wins']:>8.1f}{r['win_rate']:>9.1%}"
                f"   [{lo:>5.1%}, {hi:>5.1%}] {r['mean_score']:>7.2f}{r['mean_penalties']:>10.2f}"
                f"   {c['mean']:.3f} / {c['p95']:.3f} / {c['max']:.3f}"
            )
        ends = ", ".join(f"{k} {v}" for k, v in sorted(p["end_reasons"].items()))
        lines.append(f"  ended by: {ends}")
    lines.append("wins shared by tied winners are split evenly; score and penalties per seat")
    return "\n".join(lines)


def _bot_list(value: str | Iterable[object]) -> list[str]:
    items = value.split(",") if isinstance(value, str) else list(value)
    names = [str(n).strip() for n in items]
    return [n for n in names if n]


def main(args: argparse.Namespace) -> int:
    bots = _bot_list(args.bots)
    unknown = [b for b in bots if not known(b)]
    if not bots or unknown:
        names = ", ".join([*LEVELS, *REFERENCE])
        print(f"tournament: unknown bots {unknown} (known: {names})", file=sys.stderr)
        return 2
    if len(set(bots)) != len(bots):
        print("tournament: name each bot once; seats are filled by rotation", file=sys.stderr)
        return 2
    if args.players not in (2, 3, 4) or args.games < 1:
        print("tournament: 2-4 players and at least one game", file=sys.stderr)
        return 2
    tasks = schedule(bots, args.games, args.players, args.seed, args.budget)
    began = time.perf_counter()
    outcomes = run(tasks, min(args.workers, args.games))
    rep = report(args, bots, outcomes, time.perf_counter() - began)
    print(json.dumps(rep) if args.json else render(rep))
    return 0

"""`coffee-rush tournament`: bots play each other without a server, in parallel processes.

Games come in blocks, one per rotation of the line-up: every game of a block is dealt
from the same seed and each bot moves one seat along, so each bot plays each seat (the
starting seat included) equally often on the same deals. A game's win is shared evenly
between tied winners. "games" per bot counts the seats it played: a bot filling two seats
of a game counts it twice.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import sys
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from .levels import LEVELS, chooser
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
    score: int = 0
    reasons: dict[str, int] = field(default_factory=dict)


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


def play(task: Task) -> dict:
    """Play one scheduled game (in a worker process); return what the tally needs."""
    choosers = [chooser(level) for level in task.lineup]
    result = play_game(choosers, task.seed, task.budget, starting_player=0)
    return {
        "lineup": list(task.lineup),
        "scores": [s["total"] for s in result["scores"]],
        "winners": result["winners"],
        "reason": result["reason"],
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


def tally(bots: list[str], outcomes: list[dict]) -> dict[str, Tally]:
    out = {bot: Tally() for bot in bots}
    for o in outcomes:
        share = 1.0 / len(o["winners"])
        for seat, bot in enumerate(o["lineup"]):
            t = out[bot]
            t.games += 1
            t.score += o["scores"][seat]
            if seat in o["winners"]:
                t.wins += share
            t.reasons[o["reason"]] = t.reasons.get(o["reason"], 0) + 1
    return out


def run(tasks: list[Task], workers: int) -> list[dict]:
    if workers <= 1 or len(tasks) <= 1:
        return [play(t) for t in tasks]
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        return list(pool.map(play, tasks, chunksize=1))


def report(args: argparse.Namespace, bots: list[str], outcomes: list[dict], secs: float) -> dict:
    tallies = tally(bots, outcomes)
    reasons: dict[str, int] = {}
    for o in outcomes:
        reasons[o["reason"]] = reasons.get(o["reason"], 0) + 1
    rows = []
    for bot in bots:
        t = tallies[bot]
        lo, hi = wilson(t.wins, t.games)
        rows.append({
            "bot": bot,
            "games": t.games,
            "wins": t.wins,
            "win_rate": t.wins / t.games if t.games else 0.0,
            "ci95": [lo, hi],
            "mean_score": t.score / t.games if t.games else 0.0,
        })
    return {
        "games": len(outcomes),
        "players": args.players,
        "seed": args.seed,
        "budget": args.budget,
        "bots": rows,
        "end_reasons": reasons,
        "shared_wins": "split evenly between tied winners",
        "seconds": round(secs, 1),
    }


def render(rep: dict) -> str:
    lines = [
        f"tournament: {rep['games']} games, {rep['players']} players, "
        f"budget {rep['budget']} s/turn, seed {rep['seed']}, {rep['seconds']} s",
        f"{'bot':<10}{'games':>7}{'wins':>9}{'win rate':>10}   {'95% CI (Wilson)':<18}"
        f"{'mean score':>11}",
    ]
    for r in rep["bots"]:
        lo, hi = r["ci95"]
        lines.append(
            f"{r['bot']:<10}{r['games']:>7}{r['wins']:>9.1f}{r['win_rate']:>9.1%}"
            f"   [{lo:>5.1%}, {hi:>5.1%}]{r['mean_score']:>11.2f}"
        )
    ends = ", ".join(f"{k} {v}" for k, v in sorted(rep["end_reasons"].items()))
    lines.append(f"games ended by: {ends}; shared wins are split evenly between tied winners")
    return "\n".join(lines)


def _bot_list(value: str | Iterable[object]) -> list[str]:
    items = value.split(",") if isinstance(value, str) else list(value)
    names = [str(n).strip() for n in items]
    return [n for n in names if n]


def main(args: argparse.Namespace) -> int:
    bots = _bot_list(args.bots)
    unknown = [b for b in bots if b not in LEVELS]
    if not bots or unknown:
        print(f"tournament: unknown bots {unknown} (known: {', '.join(LEVELS)})", file=sys.stderr)
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

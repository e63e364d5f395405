"""A tournament log read for the penalty race and paired deals (issue 48).

    .venv/bin/python bench/bots_race.py LOG.jsonl [LOG2.jsonl ...] [--bot expert]

Reads the JSON lines that `bench/bots.py --log` writes (one per game, in any order: a
run with several workers ends its games out of order) and prints, for `--bot`:

- its share of the games' wins with a 95% Wilson interval, over every game and over the
  complete blocks only (a block deals one seed and rotates the line-up through the seats:
  a run cut short may hold part of a block, and only whole blocks are paired deals);
- the penalty race (R-END-PEN): in how many games nobody, only its seats, only other
  seats, or both reached five penalties, and its share of the wins in each;
- CPU seconds per decision of each level: mean, p95 and max.

Nothing is played: it reads logs, so it can follow a run still going.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.bots.tournament import wilson  # noqa: E402
from server.rules.data import PENALTY_LIMIT  # noqa: E402


def share(o: dict, bot: str) -> float:
    """The bot's share of this game's wins (shared wins split)."""
    return sum(o["lineup"][s] == bot for s in o["winners"]) / len(o["winners"])


def race(o: dict, bot: str) -> str:
    """Who reached the penalty limit: nobody, the bot's seats only, others only, both."""
    mine = any(p >= PENALTY_LIMIT for p, lv in zip(o["penalties"], o["lineup"], strict=True)
               if lv == bot)
    theirs = any(p >= PENALTY_LIMIT for p, lv in zip(o["penalties"], o["lineup"], strict=True)
                 if lv != bot)
    return {(False, False): "nobody", (True, False): "alone",
            (False, True): "others only", (True, True): "both"}[(mine, theirs)]


def rate(games: list[dict], bot: str) -> str:
    if not games:
        return "no games"
    wins = sum(share(o, bot) for o in games)
    low, high = wilson(wins, len(games))
    return f"{wins:g} of {len(games)} = {wins / len(games):.1%} [{low:.1%}, {high:.1%}]"


def report(games: list[dict], bot: str) -> str:
    lines = [f"{len(games)} games, {bot}'s share of the wins: {rate(games, bot)}"]
    by_deal: dict[str, list[dict]] = defaultdict(list)
    for o in games:
        by_deal[str(o["seed"])].append(o)
    levels = {lv for o in games for lv in o["lineup"]}
    per_block = len(levels)
    whole = [o for deal in by_deal.values() if len(deal) == per_block for o in deal]
    lines.append(f"complete blocks (paired deals): {len(whole) // per_block}, "
                 f"{rate(whole, bot)}")
    kinds: dict[str, list[dict]] = defaultdict(list)
    for o in games:
        kinds[race(o, bot)].append(o)
    for kind in ("alone", "others only", "both", "nobody"):
        group = kinds.get(kind, [])
        if group:
            won = sum(share(o, bot) for o in group)
            lines.append(f"  fifth penalty {kind:>11}: {len(group):4d} games "
                         f"({len(group) / len(games):.1%}), {bot} won {won / len(group):.1%}")
    seats = [(o, s) for o in games for s, lv in enumerate(o["lineup"]) if lv == bot]
    lines.append(f"  {bot} per seat: score {statistics.fmean(o['scores'][s] for o, s in seats):.2f}"
                 f", penalties {statistics.fmean(o['penalties'][s] for o, s in seats):.2f}")
    for lv in sorted(levels):
        cpu = sorted(t for o in games for t in o["cpu"].get(lv, []))
        if cpu:
            p95 = cpu[min(len(cpu) - 1, int(0.95 * len(cpu)))]
            lines.append(f"  CPU s/decision {lv}: mean {statistics.fmean(cpu):.3f}, "
                         f"p95 {p95:.3f}, max {cpu[-1]:.3f} ({len(cpu)} decisions)")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logs", type=Path, nargs="+")
    parser.add_argument("--bot", default="expert")
    args = parser.parse_args()
    games: dict[tuple[int, str, int], dict] = {}  # a game counted once, however often logged
    for log in args.logs:
        for line in log.read_text().splitlines():
            if line.strip():
                o = json.loads(line)
                levels = " vs ".join(sorted(set(o["lineup"])))
                games[(o["players"], levels, o["index"])] = o
    tables: dict[tuple[int, str], list[dict]] = defaultdict(list)
    for (players, levels, _), o in sorted(games.items()):
        tables[(players, levels)].append(o)
    for (players, levels), group in sorted(tables.items()):
        print(f"{levels}, {players} players: {report(group, args.bot)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

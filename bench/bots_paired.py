"""Paired comparisons of expert settings: the same deals for both, so differences show
in fewer games (common random numbers).

    .venv/bin/python bench/bots_paired.py play --players 2 --games 100 --seed 31 \\
        --log base.jsonl
    .venv/bin/python bench/bots_paired.py play --players 2 --games 100 --seed 31 \\
        --set HORIZON=6 --set MARGIN=0.5 --log variant.jsonl
    .venv/bin/python bench/bots_paired.py play --bots expert,expert-1 --games 100 \\
        --seed 4848 --style opponent_rescues=True --log rescue.jsonl
    .venv/bin/python bench/bots_paired.py compare base.jsonl variant.jsonl
    .venv/bin/python bench/bots.py --players 2 --log variant.jsonl --from-log  # the report

`play` runs the tournament's games (server/bots/tournament.py, one process: `--set`
changes server/bots/expert.py's settings in this process only, `--style` a field of the
level expert's `expert.Style`; `--bots expert,expert-1` compares against expert-1, whose
Style `--style` leaves alone, while a `--set` changes expert-1 too: it plays by the same
module) and keeps each game as it ends (games already in `--log`
are not played again: `--games 200` on a log of 100 plays games 100-199 on the same
deals); a game's deal and greedy's play do not depend on the expert's settings, so two
logs of one seed hold the same deals. `compare` prints, game by game paired, the
expert's share of the wins in each log and the mean paired difference with its standard
error (a difference of two standard errors is the least worth believing), the games
where only one of the two won, and the expert's mean penalties and end reasons.
"""

from __future__ import annotations

import argparse
import ast
import json
import math
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.bots import expert  # noqa: E402
from server.bots.tournament import run, schedule  # noqa: E402


def _setting(text: str) -> tuple[str, object]:
    name, _, raw = text.partition("=")
    if not hasattr(expert, name):
        raise argparse.ArgumentTypeError(f"expert.py has no setting {name!r}")
    return name, ast.literal_eval(raw)


def _style_setting(text: str) -> tuple[str, object]:
    name, _, raw = text.partition("=")
    if name not in expert.Style.__dataclass_fields__ or name == "level":
        raise argparse.ArgumentTypeError(f"expert.Style has no setting {name!r}")
    return name, ast.literal_eval(raw)


def play(args: argparse.Namespace) -> int:
    for name, value in args.set:
        setattr(expert, name, value)
    if args.style:
        expert.EXPERT = replace(expert.EXPERT, **dict(args.style))
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    done = set(_games(args.log)) if args.log.exists() else set()
    # A longer run on the same log goes on where it stopped; --first splits a run between
    # processes (concatenate their logs to read them).
    tasks = [t for t in schedule(bots, args.games, args.players, args.seed, args.budget)
             if t.index not in done and t.index >= args.first]
    with args.log.open("a") as out:
        def keep(o: dict) -> None:
            line = {"players": args.players, "budget": args.budget,
                    "settings": dict(args.set) | {f"Style.{k}": v for k, v in args.style}}
            out.write(json.dumps({**line, **o}) + "\n")
            out.flush()
        run(tasks, 1, keep)
    return 0


def _games(path: Path) -> dict[int, dict]:
    return {o["index"]: o for o in map(json.loads, path.read_text().splitlines()) if o}


def share(o: dict, bot: str = "expert") -> float:
    """The bot's share of this game's wins (shared wins split)."""
    return sum(o["lineup"][s] == bot for s in o["winners"]) / len(o["winners"])


def _summary(games: list[dict]) -> str:
    seats = [(o, s) for o in games for s in range(len(o["lineup"]))
             if o["lineup"][s] == "expert"]
    pens = sum(o["penalties"][s] for o, s in seats) / len(seats)
    score = sum(o["scores"][s] for o, s in seats) / len(seats)
    reasons: dict[str, int] = {}
    for o in games:
        reasons[o["reason"]] = reasons.get(o["reason"], 0) + 1
    wins = sum(map(share, games))
    ends = ", ".join(f"{k} {v}" for k, v in sorted(reasons.items()))
    return (f"{wins / len(games):6.1%}  score {score:5.2f}  penalties {pens:4.2f}  "
            f"ended by {ends}")


def compare(args: argparse.Namespace) -> int:
    a, b = _games(args.a), _games(args.b)
    common = sorted(set(a) & set(b))
    if not common:
        print("no game in common")
        return 1
    for x, y in zip(common, common, strict=True):
        if a[x]["seed"] != b[y]["seed"] or a[x]["lineup"] != b[y]["lineup"]:
            raise SystemExit(f"game {x}: not the same deal in both logs")
    diffs = [share(b[i]) - share(a[i]) for i in common]
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else 0.0
    print(f"{n} paired games")
    print(f"  A {args.a.name}: {_summary([a[i] for i in common])}")
    print(f"  B {args.b.name}: {_summary([b[i] for i in common])}")
    print(f"  B - A: {mean:+.1%} (standard error {sd / math.sqrt(n):.1%}); "
          f"only A won {sum(d < 0 for d in diffs)}, only B won {sum(d > 0 for d in diffs)}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play", help="play expert vs greedy games, keep them in --log")
    p.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=31)
    p.add_argument("--first", type=int, default=0,
                   help="play from this game of the schedule on (a run split between "
                        "processes: concatenate their logs to read them)")
    p.add_argument("--budget", type=float, default=1.0)
    p.add_argument("--set", type=_setting, action="append", default=[],
                   metavar="NAME=VALUE", help="an expert.py setting, for this run")
    p.add_argument("--style", type=_style_setting, action="append", default=[],
                   metavar="NAME=VALUE", help="a field of the level expert's expert.Style")
    p.add_argument("--bots", default="expert,greedy",
                   help="the line-up, e.g. expert,expert-1 (only expert takes --style; "
                        "a --set changes expert-1 too)")
    p.add_argument("--log", type=Path, required=True)
    c = sub.add_parser("compare", help="paired comparison of two logs of one seed")
    c.add_argument("a", type=Path)
    c.add_argument("b", type=Path)
    args = parser.parse_args()
    return play(args) if args.command == "play" else compare(args)


if __name__ == "__main__":
    sys.exit(main())

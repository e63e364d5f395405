"""Is the review sound? Seeded bot games, each reviewed: does the review's mean loss per
turn order the levels as their strength does (random > greedy > strong > expert), and
does a larger total loss in a game go with a worse final place? Also the review's CPU
per game.

    nice -n 15 .venv/bin/python bench/review_levels.py --games 200 --players 4 \
        --play 0.2 --work 0.1 --log review4.jsonl
    .venv/bin/python bench/review_levels.py --log review4.jsonl --from-log

Each game seats the levels given (`--bots`, one per seat, rotated through the seats game
by game on the same deal, as a tournament's blocks are; a rotation that repeats one is
left out, so `--bots expert,expert` plays one game a deal), plays it with each bot at
`--play` of its full work, then reviews it at `--work` of the expert's (the review's own
budget, server/bots/review.py). Every game is appended to the log as it ends, so a run cut
short still reports (and `--log` resumes one). Work is counted, never timed: the same
arguments give the same figures on any machine; only the CPU column varies.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.bots import review  # noqa: E402
from server.bots.budget import Budget  # noqa: E402
from server.bots.levels import chooser  # noqa: E402
from server.rules import apply, is_over, new_game, view  # noqa: E402

LEVELS = ("random", "greedy", "strong", "expert")


def play(lineup: tuple[str, ...], seed: int, budget: float) -> tuple[list, dict, dict]:
    """One game: (actions as stored [[seat, action]], options, result)."""
    game = new_game(seed, len(lineup), starting_player=0)
    options = game.options.to_dict()
    rngs = [random.Random(f"{seed}:{seat}") for seat in range(len(lineup))]
    bots = [chooser(level) for level in lineup]
    actions: list = []
    while not is_over(game):
        seat = game.current
        seen = dict(view(game, seat))
        action = bots[seat](seen, rngs[seat], Budget(budget))
        actions.append([seat, action])
        apply(game, action, seat)
    assert game.result is not None
    return actions, options, dict(game.result)


def one(index: int, seed: int, lineup: tuple[str, ...], args: argparse.Namespace) -> dict:
    actions, options, result = play(lineup, seed, args.play)
    began = time.process_time()
    done = review.review_game(seed, options, actions, args.work, args.review_seed, len(lineup))
    cpu = time.process_time() - began
    places = list(result["places"])  # the engine's ranking, tie-breaks applied
    totals = [s["total"] for s in result["scores"]]
    return {"index": index, "seed": seed, "lineup": list(lineup), "totals": totals,
            "places": places, "winners": result["winners"], "cpu": round(cpu, 3),
            "turns": len(done["turns"]),
            "players": [{k: p[k] for k in ("turns", "lost", "per_turn", "inaccuracy",
                                           "mistake", "blunder")} for p in done["players"]],
            "losses": [[t["seat"], t["loss"]] for t in done["turns"]],
            "edges": [[t["seat"], t["edge"]] for t in done["turns"] if "edge" in t]}


def schedule(args: argparse.Namespace) -> list[tuple[int, int, tuple[str, ...]]]:
    bots = args.bots.split(",")
    lineups: list[tuple[str, ...]] = []  # the distinct rotations: one game each a deal
    for shift in range(len(bots)):
        lineup = tuple(bots[(s + shift) % len(bots)] for s in range(args.players))
        if lineup not in lineups:
            lineups.append(lineup)
    seeds = random.Random(args.seed)
    out, deal = [], 0
    for index in range(args.games):
        if index % len(lineups) == 0:
            deal = seeds.getrandbits(63)
        out.append((index, deal, lineups[index % len(lineups)]))
    return out


def kendall(xs: list[float], ys: list[float]) -> float | None:
    """Kendall's tau-a over the pairs not tied in either."""
    agree = disagree = 0
    for i in range(len(xs)):
        for j in range(i + 1, len(xs)):
            a, b = xs[i] - xs[j], ys[i] - ys[j]
            if a * b > 0:
                agree += 1
            elif a * b < 0:
                disagree += 1
    return None if agree + disagree == 0 else (agree - disagree) / (agree + disagree)


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(math.ceil(q * len(s))) - 1)] if s else float("nan")


def report(games: list[dict]) -> None:
    by_level: dict[str, list[float]] = {}
    turn_losses: dict[str, list[float]] = {}
    for g in games:
        for seat, level in enumerate(g["lineup"]):
            by_level.setdefault(level, []).append(g["players"][seat]["per_turn"])
        for seat, loss in g["losses"]:
            turn_losses.setdefault(g["lineup"][seat], []).append(loss)
    players = len(games[0]["lineup"])
    print(f"review soundness: {len(games)} games, {players} players")
    print("  level     seats  mean loss/turn (s.e.)   turn loss p50 / p90 / p95 / p99   "
          "marked >=1 / 2 / 4 per 100 turns")
    order = sorted(by_level, key=lambda lv: LEVELS.index(lv) if lv in LEVELS else 9)
    means = {}
    for level in order:
        vals = by_level[level]
        m = statistics.fmean(vals)
        se = statistics.stdev(vals) / math.sqrt(len(vals)) if len(vals) > 1 else float("nan")
        means[level] = m
        tl = turn_losses.get(level, [])
        share = [100 * sum(1 for x in tl if x >= c) / max(1, len(tl)) for c in (1.0, 2.0, 4.0)]
        print(f"  {level:8} {len(vals):6}  {m:8.3f} ({se:.3f})        "
              f"{pct(tl, .5):5.2f} / {pct(tl, .9):5.2f} / {pct(tl, .95):5.2f} / {pct(tl, .99):5.2f}"
              f"        {share[0]:5.1f} / {share[1]:5.1f} / {share[2]:5.1f}")
    edges: dict[str, list[float]] = {}  # signed: the played plan may beat the expert's
    for g in games:
        for seat, edge in g.get("edges", []):
            edges.setdefault(g["lineup"][seat], []).append(edge)
    for level in (lv for lv in order if edges.get(lv)):
        vals = edges[level]
        se = statistics.stdev(vals) / math.sqrt(len(vals)) if len(vals) > 1 else float("nan")
        print(f"  {level:8} signed edge of the expert's plan per turn: "
              f"{statistics.fmean(vals):+.3f} (s.e. {se:.3f}) over {len(vals)} turns")
    ordered = [lv for lv in LEVELS if lv in means]
    holds = all(means[a] > means[b] for a, b in zip(ordered, ordered[1:], strict=False))
    print(f"  ordering {' > '.join(ordered)} by mean loss per turn: "
          f"{'holds' if holds else 'does NOT hold'}")
    for a, b in zip(ordered, ordered[1:], strict=False):  # paired by game: same deal
        diffs = [g["players"][g["lineup"].index(a)]["per_turn"]
                 - g["players"][g["lineup"].index(b)]["per_turn"]
                 for g in games if a in g["lineup"] and b in g["lineup"]]
        if len(diffs) > 1:
            m, se = statistics.fmean(diffs), statistics.stdev(diffs) / math.sqrt(len(diffs))
            print(f"  paired by game, {a} - {b}: {m:+.3f} (s.e. {se:.3f}, 95% "
                  f"[{m - 1.96 * se:+.3f}, {m + 1.96 * se:+.3f}]), "
                  f"{a} lost more per turn in {sum(1 for d in diffs if d > 0)} of {len(diffs)}")
    # Were the levels apart in these very games? The review can only order levels that
    # played apart: their places and points, paired by game, beside the review's figures.
    for a, b in zip(ordered, ordered[1:], strict=False):
        both = [g for g in games if a in g["lineup"] and b in g["lineup"]]
        if len(both) < 2:
            continue
        above = sum(1 for g in both
                    if g["places"][g["lineup"].index(b)] < g["places"][g["lineup"].index(a)])
        below = sum(1 for g in both
                    if g["places"][g["lineup"].index(a)] < g["places"][g["lineup"].index(b)])
        pts = [g["totals"][g["lineup"].index(b)] - g["totals"][g["lineup"].index(a)]
               for g in both]
        m, se = statistics.fmean(pts), statistics.stdev(pts) / math.sqrt(len(pts))
        print(f"  in these games, {b} placed above {a} in {above}, below in {below} of "
              f"{len(both)}; points {b} - {a}: {m:+.2f} (95% [{m - 1.96 * se:+.2f}, "
              f"{m + 1.96 * se:+.2f}])")
    taus = [t for g in games if (t := kendall([p["lost"] for p in g["players"]],
                                              [float(x) for x in g["places"]])) is not None]
    worst_last = sum(1 for g in games
                     if max(range(players), key=lambda s: g["players"][s]["lost"])
                     == max(range(players), key=lambda s: (g["places"][s], -g["totals"][s])))
    print(f"  per game, total loss vs final place (1 = first): Kendall tau mean "
          f"{statistics.fmean(taus):+.3f} over {len(taus)} games "
          f"({sum(1 for t in taus if t > 0)} positive, {sum(1 for t in taus if t < 0)} negative); "
          f"the largest loser placed last in {worst_last} of {len(games)}")
    bots = [lv for lv in LEVELS if lv != "random"]
    rest = []
    for g in games:  # the same without the random seat: is it more than random losing?
        keep = [s for s in range(players) if g["lineup"][s] in bots]
        t = kendall([g["players"][s]["lost"] for s in keep], [float(g["places"][s]) for s in keep])
        if t is not None:
            rest.append(t)
    if rest:
        print(f"  without the random seat: Kendall tau mean {statistics.fmean(rest):+.3f} over "
              f"{len(rest)} games ({sum(1 for t in rest if t > 0)} positive, "
              f"{sum(1 for t in rest if t < 0)} negative)")
    cpu = [g["cpu"] for g in games]
    turns = statistics.fmean(g["turns"] for g in games)
    print(f"  review CPU per game: mean {statistics.fmean(cpu):.2f} s, p95 {pct(cpu, .95):.2f} s,"
          f" max {max(cpu):.2f} s; turns per game {turns:.1f}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", default=",".join(LEVELS))
    parser.add_argument("--seed", type=int, default=2027)
    parser.add_argument("--play", type=float, default=0.2, help="bots' share of their work")
    parser.add_argument("--work", type=float, default=0.1, help="review's share of the expert's")
    parser.add_argument("--review-seed", type=int, default=0)
    parser.add_argument("--log", type=Path)
    parser.add_argument("--from-log", action="store_true")
    parser.add_argument("--first", type=int, default=0, help="play from this game on")
    parser.add_argument("--more", type=Path, nargs="*", default=[],
                        help="other logs of the same run to report with")
    args = parser.parse_args(argv)
    games: list[dict] = []
    if args.log and args.log.exists():
        games = [json.loads(line) for line in args.log.read_text().splitlines() if line]
    for more in args.more:
        games += [json.loads(line) for line in more.read_text().splitlines() if line]
    if not args.from_log:
        have = {g["index"] for g in games}
        for index, seed, lineup in schedule(args):
            if index in have or index < args.first:
                continue
            game = one(index, seed, lineup, args)
            games.append(game)
            if args.log:
                with args.log.open("a") as f:
                    f.write(json.dumps(game) + "\n")
            print(f"game {index}: {lineup} places {game['places']} "
                  f"lost {[p['lost'] for p in game['players']]} cpu {game['cpu']:.1f}s",
                  file=sys.stderr, flush=True)
    if games:
        report(list({g["index"]: g for g in games}.values()))


if __name__ == "__main__":
    main()
